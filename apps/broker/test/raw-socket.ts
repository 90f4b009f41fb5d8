import { connect, type Socket } from 'node:net';
import {
  type ApiSchema,
  decodeRecordBatch,
  decodeResponseFrame,
  encodeRecordBatch,
  encodeRequestFrame,
  Fetch,
  FrameDecoder,
  Produce,
  type RequestOf,
  type ResponseOf,
  splitBatches,
} from '@weir/protocol';

/** How long any single wait may take before the test fails instead of hanging. */
export const DEFAULT_WAIT_MS = 5_000;

/** Rejects with `what` unless `promise` settles within `timeoutMs`. */
export function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface FrameWaiter {
  resolve(frame: Buffer): void;
  reject(error: Error): void;
}

/**
 * A bare TCP connection to the broker for bad-input tests: writes arbitrary bytes or well-formed
 * request frames, splits what comes back into response frames, and exposes the socket's `close` as
 * an awaitable event. Every wait is bounded, so a broker that hangs fails the test quickly.
 */
export class RawConnection {
  readonly #socket: Socket;
  readonly #decoder = new FrameDecoder();
  readonly #frames: Buffer[] = [];
  readonly #waiters: FrameWaiter[] = [];
  readonly #closed: Promise<void>;
  #isClosed = false;
  #nextCorrelationId = 0;

  private constructor(socket: Socket) {
    this.#socket = socket;
    this.#closed = new Promise<void>((resolve) => {
      socket.once('close', () => {
        this.#isClosed = true;
        for (const waiter of this.#waiters.splice(0)) {
          waiter.reject(new Error('the broker closed the connection'));
        }
        resolve();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      const { frames, error } = this.#decoder.push(chunk);
      if (error) {
        socket.destroy(new Error(`the broker sent a bad frame: ${error.message}`));
        return;
      }
      for (const frame of frames) {
        const waiter = this.#waiters.shift();
        if (waiter) waiter.resolve(frame);
        else this.#frames.push(frame);
      }
    });
    // A reset from the broker is a close like any other here; tests assert on `closed()`.
    socket.on('error', () => {});
  }

  /** Connects to 127.0.0.1:`port`, from `localAddress` when given. */
  static async open(
    port: number,
    timeoutMs = DEFAULT_WAIT_MS,
    localAddress?: string,
  ): Promise<RawConnection> {
    // Another loopback address (127.0.0.2, …) is another client address to the broker.
    const socket = connect({
      host: '127.0.0.1',
      port,
      ...(localAddress === undefined ? {} : { localAddress }),
    });
    socket.setNoDelay(true);
    const connection = new RawConnection(socket);
    await within(
      new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      }),
      timeoutMs,
      `a connection to port ${port}`,
    );
    return connection;
  }

  /** True once the socket has closed, whichever side closed it. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Writes raw bytes; resolves when they have been handed to the kernel. */
  write(bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#socket.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Allocates the next correlation id (ids ascend from 0 unless a test picks its own). */
  nextCorrelationId(): number {
    return this.#nextCorrelationId++;
  }

  /** Encodes a request frame at `version` with the next correlation id. */
  frame<A extends ApiSchema>(
    api: A,
    version: number,
    body: RequestOf<A>,
  ): { correlationId: number; bytes: Buffer } {
    const correlationId = this.nextCorrelationId();
    return { correlationId, bytes: encodeRequestFrame(api, version, correlationId, 'weir-raw-test', body) };
  }

  /** Sends one request and returns its correlation id without waiting for the answer. */
  async send<A extends ApiSchema>(api: A, version: number, body: RequestOf<A>): Promise<number> {
    const { correlationId, bytes } = this.frame(api, version, body);
    await this.write(bytes);
    return correlationId;
  }

  /** The next response frame (without its size prefix); rejects if the connection closes first. */
  nextFrame(timeoutMs = DEFAULT_WAIT_MS): Promise<Buffer> {
    const queued = this.#frames.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#isClosed) return Promise.reject(new Error('the broker closed the connection'));
    let waiter: FrameWaiter | undefined;
    const next = new Promise<Buffer>((resolve, reject) => {
      waiter = { resolve, reject };
      this.#waiters.push(waiter);
    });
    return within(next, timeoutMs, 'a response frame').catch((error: unknown) => {
      const index = this.#waiters.indexOf(waiter!);
      if (index >= 0) this.#waiters.splice(index, 1);
      throw error;
    });
  }

  /** Reads the next response frame and decodes it as `api` at `version`, checking the correlation id. */
  async receive<A extends ApiSchema>(
    api: A,
    version: number,
    correlationId: number,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<ResponseOf<A>> {
    const frame = await this.nextFrame(timeoutMs);
    const decoded = decodeResponseFrame(api, version, frame);
    if (!decoded.ok)
      throw new Error(`${api.name} v${version} response did not decode: ${decoded.error.message}`);
    if (decoded.value.correlationId !== correlationId) {
      throw new Error(`expected correlation id ${correlationId}, got ${decoded.value.correlationId}`);
    }
    return decoded.value.body;
  }

  /** Sends one request and waits for its response. */
  async request<A extends ApiSchema>(
    api: A,
    version: number,
    body: RequestOf<A>,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<ResponseOf<A>> {
    const correlationId = await this.send(api, version, body);
    return this.receive(api, version, correlationId, timeoutMs);
  }

  /** Resolves when the socket closes; rejects if it is still open after `timeoutMs`. */
  closed(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return within(this.#closed, timeoutMs, 'the broker to close the connection');
  }

  /** Half-closes: sends FIN after anything already written (the broker sees end of stream). */
  end(): void {
    this.#socket.end();
  }

  /** Closes the socket from this side and waits for it to be gone. */
  async destroy(): Promise<void> {
    this.#socket.destroy();
    await this.closed();
  }
}

/** A size-prefixed frame around `body`, for hand-made requests. */
export function rawFrame(body: Uint8Array): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeInt32BE(body.length, 0);
  return Buffer.concat([prefix, body]);
}

/** A request header v1 (api key, version, correlation id, client id) as bytes, for hand-made requests. */
export function rawRequestHeader(
  apiKey: number,
  apiVersion: number,
  correlationId: number,
  clientId: string | null = 'weir-raw-test',
): Buffer {
  const id = clientId === null ? null : Buffer.from(clientId, 'utf8');
  const header = Buffer.alloc(10 + (id?.length ?? 0));
  header.writeInt16BE(apiKey, 0);
  header.writeInt16BE(apiVersion, 2);
  header.writeInt32BE(correlationId, 4);
  header.writeInt16BE(id ? id.length : -1, 8);
  id?.copy(header, 10);
  return header;
}

/** A plain (non-idempotent, uncompressed) batch holding `values`, as a producer would send it. */
export function batchOf(values: readonly string[]): Buffer {
  return encodeRecordBatch({
    records: values.map((value, index) => ({
      key: Buffer.from(`key-${index}`),
      value: Buffer.from(value),
      timestampMs: 1_700_000_000_000 + index,
    })),
  });
}

/** The record values of a RECORDS blob (whole batches), in offset order. */
export function valuesOf(records: Buffer | null): string[] {
  if (records === null) throw new Error('records is null; an empty result must be zero-length bytes');
  const split = splitBatches(records);
  if (!split.ok) throw new Error(`records did not split into batches: ${split.error.message}`);
  return split.value.batches.flatMap((bytes) => {
    const batch = decodeRecordBatch(bytes);
    if (!batch.ok) throw new Error(`batch did not decode: ${batch.error.message}`);
    return batch.value.records.map((record) => record.value?.toString('utf8') ?? '<null>');
  });
}

/** A Produce v7 request body with one batch per listed partition. */
export function produceBody(
  acks: number,
  topics: readonly { topic: string; partitions: readonly { partition: number; records: Buffer | null }[] }[],
): RequestOf<typeof Produce> {
  return {
    transactionalId: null,
    acks,
    timeoutMs: 10_000,
    topicData: topics.map(({ topic, partitions }) => ({
      name: topic,
      partitionData: partitions.map(({ partition, records }) => ({ index: partition, records })),
    })),
  };
}

/** Produces `values` as one batch to one partition with acks=1 and returns that partition's answer. */
export async function produceValues(
  connection: RawConnection,
  topic: string,
  partition: number,
  values: readonly string[],
): Promise<{ errorCode: number; baseOffset: bigint }> {
  const response = await connection.request(
    Produce,
    7,
    produceBody(1, [{ topic, partitions: [{ partition, records: batchOf(values) }] }]),
  );
  const answer = response.responses[0]!.partitionResponses[0]!;
  return { errorCode: answer.errorCode, baseOffset: answer.baseOffset };
}

/** A Fetch v11 request body for one partition. */
export function fetchBody(
  topic: string,
  partition: number,
  fetchOffset: bigint,
  options: { maxWaitMs?: number; minBytes?: number; maxBytes?: number; partitionMaxBytes?: number } = {},
): RequestOf<typeof Fetch> {
  return {
    replicaId: -1,
    maxWaitMs: options.maxWaitMs ?? 0,
    minBytes: options.minBytes ?? 0,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    isolationLevel: 0,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [
      {
        topic,
        partitions: [
          {
            partition,
            currentLeaderEpoch: -1,
            fetchOffset,
            logStartOffset: -1n,
            partitionMaxBytes: options.partitionMaxBytes ?? 8 * 1024 * 1024,
          },
        ],
      },
    ],
    forgottenTopicsData: [],
    rackId: '',
  };
}

/** One partition of a Fetch v11 answer, with its record values decoded. */
export interface FetchedPartition {
  errorCode: number;
  highWatermark: bigint;
  logStartOffset: bigint;
  records: Buffer | null;
  values: string[];
}

/** Fetches one partition (no waiting) over `connection` and decodes the record values. */
export async function fetchValues(
  connection: RawConnection,
  topic: string,
  partition: number,
  fetchOffset = 0n,
): Promise<FetchedPartition> {
  const response = await connection.request(Fetch, 11, fetchBody(topic, partition, fetchOffset));
  return fetchedPartition(response);
}

/** The single partition of a Fetch answer to {@link fetchBody}. */
export function fetchedPartition(response: ResponseOf<typeof Fetch>): FetchedPartition {
  const answer = response.responses[0]!.partitions[0]!;
  return {
    errorCode: answer.errorCode,
    highWatermark: answer.highWatermark,
    logStartOffset: answer.logStartOffset,
    records: answer.records,
    values: answer.errorCode === 0 ? valuesOf(answer.records) : [],
  };
}
