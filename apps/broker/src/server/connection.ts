import type { Socket } from 'node:net';
import { FrameDecoder } from '@weir/protocol';
import type { Dispatcher } from './dispatcher';

export interface ConnectionLimits {
  maxFrameBytes: number;
  idleTimeoutMs: number;
  maxInFlightRequestsPerConnection: number;
}

/** Connection lifecycle events, for logs and metrics. */
export interface ConnectionEvents {
  onClose(connection: Connection, reason: string): void;
}

/**
 * One client connection. Frames are split with a bounded decoder, queued, and handled strictly
 * one at a time, so responses leave in request order even when the client pipelines (Kafka mutes
 * a socket the same way). When `maxInFlightRequestsPerConnection` requests are queued the socket
 * stops being read, so a fast client cannot grow the queue without bound; a response that does
 * not fit the socket buffer waits for 'drain' before the next request runs.
 */
export class Connection {
  readonly remoteAddress: string;
  readonly #decoder: FrameDecoder;
  readonly #queue: Buffer[] = [];
  readonly #abort = new AbortController();
  #processing = false;
  #closed = false;
  #stoppedReading = false;
  /** Why the frame decoder failed; the connection closes once the frames before it are answered. */
  #failure: string | undefined;
  #idle: Promise<void> = Promise.resolve();
  #markIdle: () => void = () => {};

  constructor(
    private readonly socket: Socket,
    private readonly dispatcher: Dispatcher,
    private readonly limits: ConnectionLimits,
    private readonly events: ConnectionEvents,
  ) {
    this.remoteAddress = socket.remoteAddress ?? 'unknown';
    this.#decoder = new FrameDecoder({ maxFrameBytes: limits.maxFrameBytes });
    socket.setNoDelay(true);
    socket.setTimeout(limits.idleTimeoutMs);
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('timeout', () => {
      if (!this.#processing && this.#queue.length === 0) this.close('idle timeout');
    });
    socket.on('error', (error) => this.close(`socket error: ${error.message}`));
    socket.on('close', () => this.close('closed by the client'));
  }

  get isClosed(): boolean {
    return this.#closed;
  }

  /** Resolves when no request is being handled (for graceful shutdown). */
  whenIdle(): Promise<void> {
    return this.#processing ? this.#idle : Promise.resolve();
  }

  /**
   * Stops reading new requests (graceful shutdown). The request being handled still finishes, and
   * a long-polling fetch is woken so it answers with what it has instead of waiting out its time.
   */
  stopReading(): void {
    this.#stoppedReading = true;
    this.socket.pause();
    this.#queue.length = 0;
    this.#abort.abort();
  }

  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#abort.abort();
    this.socket.destroy();
    this.events.onClose(this, reason);
  }

  #onData(chunk: Buffer): void {
    const { frames, error } = this.#decoder.push(chunk);
    for (const frame of frames) this.#queue.push(frame);
    if (error) {
      // The stream cannot be resynchronised after a bad size prefix; requests already complete
      // before it are still answered, then the connection closes.
      this.#queue.push(Buffer.alloc(0));
      this.#failure = error.message;
    }
    if (this.#queue.length >= this.limits.maxInFlightRequestsPerConnection) this.socket.pause();
    this.#process().catch((error: unknown) => {
      // Dispatch answers bad input itself; anything thrown here is a bug, and it must cost this
      // connection, never the process.
      this.close(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async #process(): Promise<void> {
    if (this.#processing) return;
    this.#processing = true;
    this.#idle = new Promise<void>((resolve) => {
      this.#markIdle = resolve;
    });
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const frame = this.#queue.shift()!;
        if (frame.length === 0 && this.#failure) {
          this.close(`bad frame: ${this.#failure}`);
          return;
        }
        // Frames are views of socket chunks; Node allocates a fresh chunk per read, so a view
        // stays valid, and the log may rewrite a batch's offset bytes in place.
        const outcome = await this.dispatcher.dispatch(frame, {
          principal: 'User:ANONYMOUS',
          clientHost: this.remoteAddress,
          signal: this.#abort.signal,
        });
        if (this.#closed) return;
        if (outcome.kind === 'close') {
          this.close(outcome.reason);
          return;
        }
        if (outcome.kind === 'respond' && !this.socket.write(outcome.frame)) {
          await new Promise<void>((resolve) => {
            this.socket.once('drain', resolve);
            this.socket.once('close', resolve);
          });
        }
        const belowLimit = this.#queue.length < this.limits.maxInFlightRequestsPerConnection;
        if (belowLimit && this.socket.isPaused() && !this.#stoppedReading) {
          this.socket.resume();
        }
      }
    } finally {
      this.#processing = false;
      this.#markIdle();
    }
  }
}
