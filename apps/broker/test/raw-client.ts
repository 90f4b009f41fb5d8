import { connect, type Socket } from 'node:net';
import {
  type ApiSchema,
  decodeResponseFrame,
  encodeRequestFrame,
  FrameDecoder,
  peekCorrelationId,
  type RequestOf,
  type ResponseOf,
} from '@weir/protocol';

interface Waiter {
  resolve(frame: Buffer): void;
  reject(error: Error): void;
}

/** How long a response may take before the test fails instead of hanging. */
const RESPONSE_TIMEOUT_MS = 5_000;

/**
 * A bare Kafka connection for tests: sends frames (encoded requests or arbitrary bytes) and reads
 * response frames in order. For APIs or versions that kafkajs does not send (IncrementalAlterConfigs,
 * DescribeConfigs v0) and for malformed input.
 */
export class RawClient {
  readonly #socket: Socket;
  readonly #decoder = new FrameDecoder();
  /** Frames that arrived before anyone asked for them. */
  readonly #frames: Buffer[] = [];
  readonly #waiters: Waiter[] = [];
  #closedBy: Error | undefined;
  #nextCorrelationId = 1;

  private constructor(
    socket: Socket,
    private readonly clientId: string,
  ) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      const { frames, error } = this.#decoder.push(chunk);
      for (const frame of frames) this.#deliver(Buffer.from(frame));
      if (error) this.#fail(error);
    });
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  /** Connects to `host:port` (a bootstrap string such as the broker harness gives). */
  static connect(bootstrap: string, clientId = 'weir-raw-client'): Promise<RawClient> {
    const separator = bootstrap.lastIndexOf(':');
    const host = bootstrap.slice(0, separator);
    const port = Number(bootstrap.slice(separator + 1));
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port }, () => {
        socket.off('error', reject);
        resolve(new RawClient(socket, clientId));
      });
      socket.once('error', reject);
    });
  }

  /** Sends one request and returns its decoded response; fails on a decode or correlation mismatch. */
  async request<A extends ApiSchema>(api: A, version: number, body: RequestOf<A>): Promise<ResponseOf<A>> {
    const correlationId = this.#nextCorrelationId++;
    this.send(encodeRequestFrame(api, version, correlationId, this.clientId, body));
    const frame = await this.nextFrame();
    const decoded = decodeResponseFrame(api, version, frame);
    if (!decoded.ok) throw decoded.error;
    if (decoded.value.correlationId !== correlationId) {
      throw new Error(`expected correlation id ${correlationId}, got ${decoded.value.correlationId}`);
    }
    return decoded.value.body;
  }

  /** Writes bytes as they are: a whole frame, part of one, or garbage. */
  send(bytes: Uint8Array): void {
    this.#socket.write(bytes);
  }

  /**
   * The next response frame (without its size prefix). Rejects if the connection ends first or
   * nothing arrives within `timeoutMs`.
   */
  nextFrame(timeoutMs = RESPONSE_TIMEOUT_MS): Promise<Buffer> {
    const frame = this.#frames.shift();
    if (frame) return Promise.resolve(frame);
    if (this.#closedBy) return Promise.reject(this.#closedBy);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (arrived) => {
          clearTimeout(timer);
          resolve(arrived);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`no response frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** The correlation id of a frame read with {@link nextFrame}. */
  static correlationIdOf(frame: Buffer): number {
    const peeked = peekCorrelationId(frame);
    if (!peeked.ok) throw peeked.error;
    return peeked.value;
  }

  /** Resolves when the broker has closed the connection. */
  closed(): Promise<void> {
    if (this.#socket.closed) return Promise.resolve();
    return new Promise((resolve) => this.#socket.once('close', () => resolve()));
  }

  close(): Promise<void> {
    const closed = this.closed();
    this.#socket.destroy();
    return closed;
  }

  #deliver(frame: Buffer): void {
    const waiter = this.#waiters.shift();
    if (waiter) waiter.resolve(frame);
    else this.#frames.push(frame);
  }

  #fail(error: Error): void {
    this.#closedBy ??= error;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(this.#closedBy);
  }
}
