import type { EtcdCompare, EtcdConnection, EtcdLease } from './etcd-connection';
import { ETCD_KEYS } from './etcd-keys';

export interface ControllerElectionDeps {
  connection: EtcdConnection;
  brokerId: number;
  ttlSeconds: number;
  /** Whether the controller key is free in the image, and what it holds now. */
  current(): { revision: number; controllerId: number; controllerRevision: number };
  logger: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
}

/**
 * The controller election (docs/architecture.md §6.4): the controller is whoever created the
 * `controller` key, which lives on the winner's own lease with the election's TTL, so a dead
 * controller's title ends within the TTL and a clean stop deletes it at once. The key's create
 * revision is the controller's epoch; every controller write compares it ({@link fence}), so an old
 * controller that was paused past its TTL cannot write, whatever it still believes.
 *
 * Candidates try when they start and whenever the watch shows the key gone; the first create wins.
 */
export class ControllerElection {
  #lease: EtcdLease | undefined;
  /** The create revision of the key this broker holds; 0 when it is not the controller. */
  #heldRevision = 0;
  #campaigning = false;
  /** Only a registered broker is a candidate: a controller must be a live broker. */
  #candidate = false;
  #stopped = false;

  constructor(private readonly deps: ControllerElectionDeps) {}

  /** The compare that makes a write count only while this broker holds the title; undefined when it does not. */
  fence(): EtcdCompare | undefined {
    if (this.#heldRevision === 0) return undefined;
    return { key: ETCD_KEYS.controller, target: 'Create', operator: '==', value: this.#heldRevision };
  }

  /** Called after every image change: campaigns when the title is free. */
  onImageChanged(): void {
    const { revision, controllerId, controllerRevision } = this.deps.current();
    // Until the image has caught up with the winning write it cannot show the key yet.
    const caughtUp = revision >= this.#heldRevision;
    if (this.#heldRevision !== 0 && caughtUp && controllerRevision !== this.#heldRevision) {
      // The key this broker created is gone (its lease expired while the process was paused).
      this.deps.logger.warn({ controllerId }, 'no longer the controller');
      this.#heldRevision = 0;
    }
    if (controllerId === -1) void this.campaign();
  }

  /** Makes this broker a candidate (once it is registered) and tries to take the title. */
  async stand(): Promise<void> {
    this.#candidate = true;
    await this.campaign();
  }

  /** Tries once to take the title if nobody holds it. */
  async campaign(): Promise<void> {
    if (!this.#candidate || this.#campaigning || this.#stopped || this.#heldRevision !== 0) return;
    this.#campaigning = true;
    try {
      const { connection, brokerId, ttlSeconds, logger } = this.deps;
      this.#lease ??= await connection.grantLease(ttlSeconds, () => {
        // A lost lease took the key with it; the next image change shows who holds it now.
        this.#lease = undefined;
        this.#heldRevision = 0;
        void this.campaign();
      });
      const result = await connection.txn(
        [{ key: ETCD_KEYS.controller, target: 'Create', operator: '==', value: 0 }],
        [{ put: ETCD_KEYS.controller, value: JSON.stringify({ brokerId }), lease: this.#lease.id }],
      );
      if (result.succeeded && !this.#stopped) {
        // The key was created by this transaction, so its create revision is the transaction's.
        this.#heldRevision = result.revision;
        logger.info({ brokerId, controllerEpoch: result.revision }, 'elected controller');
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the controller election could not be reached; retrying');
      setTimeout(() => void this.campaign(), 1000).unref();
    } finally {
      this.#campaigning = false;
    }
  }

  /** Gives the title up (a clean stop), so another broker takes it at once instead of after the TTL. */
  async resign(): Promise<void> {
    this.#stopped = true;
    const fence = this.fence();
    this.#heldRevision = 0;
    if (fence !== undefined) {
      await this.deps.connection.txn([fence], [{ delete: ETCD_KEYS.controller }]).catch(() => undefined);
    }
    await this.#lease?.revoke();
    this.#lease = undefined;
  }
}
