import { ErrorCode, WeirError } from '@weir/protocol';
import { ExponentialBackoff, handleWhen, noop, retry } from 'cockatiel';
import {
  Etcd3,
  EtcdLeaseInvalidError,
  GRPCInvalidArgumentError,
  GRPCResourceExhastedError,
  isRecoverableError,
  type Lease,
  type Namespace,
  type Watcher,
} from 'etcd3';

/**
 * The one module that talks to etcd through the `etcd3` client (docs/architecture.md §6.4). The
 * client is frozen upstream and has pitfalls this wrapper closes: it has no default deadline (every
 * call gets one here), it retries "recoverable" errors such as RESOURCE_EXHAUSTED and lets one host's
 * circuit breaker fail every call for five seconds (values are size-checked before they are sent, only
 * unavailability is retried, and there is no breaker), a lost lease is never granted again (the caller
 * is told and grants a new one), and a watch on a compacted revision is cancelled (the caller is told
 * and lists again).
 */

/** One stored key, with the revisions etcd keeps for it. */
export interface EtcdKeyValue {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  /** The lease the key lives with, "0" for none. */
  lease: string;
}

/** One committed change of a key; a delete carries the key and the revision of the delete. */
export interface EtcdEvent {
  type: 'put' | 'delete';
  kv: EtcdKeyValue;
}

/** A condition of a transaction: `Create`/`Mod` revisions, `Version` or `Value` of a key. */
export interface EtcdCompare {
  key: string;
  target: 'Create' | 'Mod' | 'Version' | 'Value';
  operator: '==' | '!=' | '<' | '>';
  value: number | string;
}

/** One write of a transaction. */
export type EtcdWrite =
  | { put: string; value: string; lease?: string }
  | { delete: string }
  | { deletePrefix: string };

export interface EtcdTxnResult {
  succeeded: boolean;
  /** The store's revision after the transaction (its own revision when it wrote). */
  revision: number;
  /** On failure, the current values of the keys named by `readOnFailure`. */
  current: EtcdKeyValue[];
}

/** What a prefix watch reports. Events arrive in commit order, grouped by revision. */
export interface EtcdWatchHandlers {
  onEvents(events: readonly EtcdEvent[], revision: number): void;
  /** The revision to resume from is compacted away: list again and watch from the list. */
  onCompacted(): void;
  onDisconnected?(error: unknown): void;
  onConnected?(): void;
}

export interface EtcdConnectionOptions {
  endpoints: readonly string[];
  /** Every key is under this prefix, e.g. `/weir/<cluster>/`. */
  prefix: string;
  requestTimeoutMs: number;
}

/** The largest value written (etcd refuses requests above 1.5 MiB; keys here stay far below). */
export const MAX_VALUE_BYTES = 256 * 1024;

export class EtcdConnection {
  readonly #client: Etcd3;
  readonly #root: Namespace;
  readonly #options: EtcdConnectionOptions;

  constructor(options: EtcdConnectionOptions) {
    this.#options = options;
    this.#client = new Etcd3({
      hosts: [...options.endpoints],
      dialTimeout: options.requestTimeoutMs,
      // Streams (watches, keepalives) live as long as they are used; every unary call has a deadline.
      defaultCallOptions: (context) =>
        context.isStream ? {} : { deadline: Date.now() + options.requestTimeoutMs },
      faultHandling: {
        // Unavailability is retried on another member; an error the request itself caused is not.
        global: retry(handleWhen(isRetriable), { maxAttempts: 2 }),
        // A breaker over one host would fail every call for seconds after an etcd restart.
        host: () => noop,
        // A watch reconnects within two seconds of etcd's return, not the default thirty.
        watchBackoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 2000 }).next(),
      },
    });
    this.#root = this.#client.namespace(options.prefix);
  }

  get endpoints(): readonly string[] {
    return this.#options.endpoints;
  }

  get prefix(): string {
    return this.#options.prefix;
  }

  /** Every key under `prefix` (relative to the root), with the revision the list is as of. */
  async range(prefix: string): Promise<{ kvs: EtcdKeyValue[]; revision: number }> {
    const response = await this.#call('list', () => this.#root.getAll().prefix(prefix).exec());
    return {
      kvs: response.kvs.map((kv) => keyValueOf(kv, this.#options.prefix)),
      revision: Number(response.header.revision),
    };
  }

  /**
   * The keys in `[start, end)` (relative to the root), in key order or reversed, at most `limit`
   * of them: for keys that are read in pages rather than held in the image, such as the events.
   */
  async rangeBetween(
    start: string,
    end: string,
    options: { limit: number; descending: boolean },
  ): Promise<EtcdKeyValue[]> {
    const response = await this.#call('list', () =>
      this.#root
        .getAll()
        .inRange({ start, end })
        .sort('Key', options.descending ? 'Descend' : 'Ascend')
        .limit(options.limit)
        .exec(),
    );
    return response.kvs.map((kv) => keyValueOf(kv, this.#options.prefix));
  }

  /** How many keys `[start, end)` holds. */
  async countBetween(start: string, end: string): Promise<number> {
    return this.#call('count', () => this.#root.getAll().inRange({ start, end }).count());
  }

  /** Deletes the keys in `[start, end)`. */
  async deleteBetween(start: string, end: string): Promise<void> {
    await this.#call('delete', () => this.#root.delete().inRange({ start, end }).exec());
  }

  async get(key: string): Promise<EtcdKeyValue | undefined> {
    const response = await this.#call('read', () => this.#root.get(key).exec());
    const kv = response.kvs[0];
    return kv === undefined ? undefined : keyValueOf(kv, this.#options.prefix);
  }

  /**
   * Writes atomically when every compare holds; otherwise writes nothing and returns the current
   * values of `readOnFailure`.
   */
  async txn(
    compares: readonly EtcdCompare[],
    writes: readonly EtcdWrite[],
    readOnFailure: readonly string[] = [],
  ): Promise<EtcdTxnResult> {
    for (const write of writes) {
      if ('put' in write && Buffer.byteLength(write.value) > MAX_VALUE_BYTES) {
        throw new WeirError(ErrorCode.INVALID_REQUEST, {
          detail: `the metadata value of ${write.put} is ${Buffer.byteLength(write.value)} bytes, above the ${MAX_VALUE_BYTES}-byte limit`,
        });
      }
    }
    // etcd's transaction needs a condition; with none given, one that always holds.
    const conditions: readonly EtcdCompare[] =
      compares.length > 0 ? compares : [{ key: 'cluster', target: 'Version', operator: '>', value: -1 }];
    const response = await this.#call('write', () => {
      const [first, ...rest] = conditions as [EtcdCompare, ...EtcdCompare[]];
      let builder = this.#root.if(first.key, first.target, first.operator, first.value);
      for (const compare of rest)
        builder = builder.and(compare.key, compare.target, compare.operator, compare.value);
      return builder
        .then(...writes.map((write) => this.#operation(write)))
        .else(...readOnFailure.map((key) => this.#root.get(key)))
        .commit();
    });
    const current: EtcdKeyValue[] = [];
    if (!response.succeeded) {
      for (const item of response.responses) {
        for (const kv of item.response_range?.kvs ?? []) current.push(keyValueOf(kv, this.#options.prefix));
      }
    }
    return { succeeded: response.succeeded, revision: Number(response.header.revision), current };
  }

  /** A lease that keeps itself alive until revoked, or reports that it was lost. */
  async grantLease(ttlSeconds: number, onLost: (error: unknown) => void): Promise<EtcdLease> {
    const lease = this.#client.lease(ttlSeconds, { autoKeepAlive: true });
    lease.on('lost', onLost);
    // A failed grant rejects here, and the lease emits 'lost' too; the caller handles the rejection.
    const id = await this.#call('grant a lease', () => lease.grant());
    return new EtcdLease(lease, id, this.#options.requestTimeoutMs);
  }

  /** Revokes a lease by id (another process's, once it is known to be dead), deleting its keys. */
  async revokeLease(id: string): Promise<void> {
    await this.#call('revoke a lease', () =>
      this.#root.leaseClient.leaseRevoke(
        { ID: id },
        { deadline: Date.now() + this.#options.requestTimeoutMs },
      ),
    );
  }

  /** Follows every change under `prefix` after `afterRevision`, in commit order. */
  async watch(
    prefix: string,
    afterRevision: number,
    handlers: EtcdWatchHandlers,
  ): Promise<() => Promise<void>> {
    const watcher: Watcher = await this.#call('watch', () =>
      this.#root
        .watch()
        .prefix(prefix)
        .startRevision(String(afterRevision + 1))
        .create(),
    );
    // etcd3 resumes a watch after a reconnect from the revision in the last response header, which
    // is etcd's current revision when it answered, not the last event delivered: a stream that
    // breaks again while etcd is still sending the events it missed would skip them for good. So
    // every response and reconnection sets the resume point back to the last revision delivered.
    let delivered = afterRevision;
    const resumeAfterDelivered = () => {
      watcher.request.start_revision = String(delivered + 1);
    };
    watcher.on('data', (response) => {
      const byRevision = new Map<number, EtcdEvent[]>();
      for (const event of response.events) {
        const kv = keyValueOf(event.kv, this.#options.prefix);
        const list = byRevision.get(kv.modRevision) ?? [];
        list.push({ type: event.type === 'Delete' ? 'delete' : 'put', kv });
        byRevision.set(kv.modRevision, list);
      }
      for (const [revision, events] of [...byRevision].sort((left, right) => left[0] - right[0])) {
        handlers.onEvents(events, revision);
        delivered = Math.max(delivered, revision);
      }
      resumeAfterDelivered();
    });
    // The client emits 'error' only when etcd cancels the watch, which it does for a compacted
    // start revision; the watch cannot resume and the caller lists again.
    watcher.on('error', () => handlers.onCompacted());
    watcher.on('disconnected', (error) => handlers.onDisconnected?.(error));
    watcher.on('connected', () => {
      resumeAfterDelivered();
      handlers.onConnected?.();
    });
    return async () => {
      await watcher.cancel().catch(() => undefined);
    };
  }

  close(): void {
    this.#client.close();
  }

  #operation(write: EtcdWrite) {
    if ('put' in write) {
      const put = this.#root.put(write.put).value(write.value);
      return write.lease === undefined ? put : put.lease(write.lease);
    }
    if ('delete' in write) return this.#root.delete().key(write.delete);
    return this.#root.delete().prefix(write.deletePrefix);
  }

  /** Runs one call, turning etcd's failures into retriable Kafka errors that say what was tried. */
  async #call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof WeirError) throw error;
      throw new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
        detail: `etcd (${this.#options.endpoints.join(', ')}) did not ${what}: ${messageOf(error)}`,
        cause: error,
      });
    }
  }
}

/** A granted lease; keys written with its id are deleted when it ends. */
export class EtcdLease {
  constructor(
    readonly lease: Lease,
    /** etcd's lease id, as a decimal string. */
    readonly id: string,
    private readonly requestTimeoutMs: number,
  ) {}

  /** Ends the lease now, deleting its keys (a clean stop). */
  async revoke(): Promise<void> {
    await this.lease.revoke({ deadline: Date.now() + this.requestTimeoutMs }).catch(() => undefined);
  }
}

/** Whether a failed call may succeed on another try (etcd unavailable), unlike one refused for its content. */
function isRetriable(error: Error): boolean {
  if (error instanceof GRPCResourceExhastedError || error instanceof GRPCInvalidArgumentError) return false;
  if (error instanceof EtcdLeaseInvalidError) return false;
  return isRecoverableError(error);
}

function keyValueOf(
  kv: { key: Buffer; value: Buffer; create_revision: string; mod_revision: string; lease: string },
  prefix: string,
): EtcdKeyValue {
  const key = kv.key.toString('utf8');
  return {
    key: key.startsWith(prefix) ? key.slice(prefix.length) : key,
    value: kv.value.toString('utf8'),
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
    lease: String(kv.lease),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
