import type { Socket } from 'node:net';
import { FrameDecoder, type FramePart, isDeferredBytes } from '@weir/protocol';
import type { ConnectionAuth } from './auth/connection-auth';
import type { Dispatcher, DispatchOutcome } from './dispatcher';
import type { HeldRequestBytes } from './held-request-bytes';
import type { RequestScheduler, ScheduledConnection } from './request-scheduler';

export interface ConnectionLimits {
  maxFrameBytes: number;
  /**
   * The largest frame a connection that has not authenticated may send (Kafka's
   * `sasl.server.max.receive.size`); decided on the size prefix, so a larger body is never read.
   */
  maxFrameBytesBeforeAuthentication: number;
  idleTimeoutMs: number;
  maxInFlightRequestsPerConnection: number;
}

/** Connection lifecycle events, for logs and metrics. */
export interface ConnectionEvents {
  onClose(connection: Connection, reason: string): void;
  /**
   * A size prefix the connection refused: `reason` is a fixed label (a metric label), `detail`
   * names the size and the limit. The connection closes after the requests before it are answered.
   */
  onFrameRefused(connection: Connection, reason: FrameRefusalReason, detail: string): void;
}

/** Why a frame was refused, from its size prefix alone. */
export type FrameRefusalReason =
  | 'frame_too_large'
  | 'frame_too_large_before_authentication'
  | 'bad_frame_size';

/** How long a closing connection waits for its last answer to reach the socket. */
const CLOSE_LINGER_MS = 5_000;

/**
 * How much of a deferred record set (stored batches left on disk) is read at a time while it is
 * written: what a connection whose client reads slowly holds beyond the socket's own buffers.
 */
const DEFERRED_CHUNK_BYTES = 256 * 1024;

/** A request that has been started and is not answered yet. */
interface PendingRequest {
  readonly outcome: Promise<DispatchOutcome>;
  /** Set once `outcome` settled, so answers that are already there go out without another await. */
  settled: DispatchOutcome | undefined;
}

/**
 * One client connection. Frames are split with a bounded decoder, queued, and answered strictly
 * in request order, even when the client pipelines. A request normally starts only once the one
 * before it is answered (Kafka mutes a socket the same way), with one exception: consecutive
 * Produce requests overlap. Their appends are queued in request order as each one starts, so the
 * log keeps their order, and the appends of several requests share one write and one fdatasync
 * instead of each waiting a disk round trip for the one before. Anything else waits for every
 * request before it, so, for example, a Fetch sees the records of the Produce sent ahead of it.
 *
 * When `maxInFlightRequestsPerConnection` requests are queued or running the socket stops being
 * read, so a fast client cannot grow the queue without bound; answers that do not fit the socket
 * buffer wait for 'drain' before more are written. Record sets left on disk (deferred parts of a
 * Fetch answer) are read a chunk at a time as the socket drains, so a client that asks for a lot
 * and reads slowly costs the broker one chunk, not its whole answer.
 */
export class Connection {
  readonly remoteAddress: string;
  readonly #decoder: FrameDecoder;
  readonly #queue: Buffer[] = [];
  /** Started requests, oldest first; answers are written in this order. */
  readonly #pending: PendingRequest[] = [];
  /** Whether every pending request may be overlapped by the next Produce. */
  #overlappable = true;
  readonly #abort = new AbortController();
  #processing = false;
  /** An answer with deferred parts is being written; nothing else starts meanwhile. */
  #streaming = false;
  #closed = false;
  /** While a quota mutes the connection (KIP-219), no request starts and the socket is not read. */
  #muted = false;
  /** Why the frame decoder failed; the connection closes once the frames before it are answered. */
  #failure: string | undefined;
  /** Bytes of complete frames in {@link #queue}. */
  #queuedBytes = 0;
  /** What this connection last reported to the broker's tally of held request bytes. */
  #reportedHeldBytes = 0;
  /** Whether the decoder still applies the limit for connections that have not authenticated. */
  #preAuthenticationLimit: boolean;
  #idle: Promise<void> = Promise.resolve();
  #markIdle: () => void = () => {};
  /** This connection's place in the broker-wide fairness scheduler. */
  readonly #scheduled: ScheduledConnection;
  /** The client its fair share is counted for: principal and the first request's client id. */
  #tenantKey: string | undefined;
  #tenantPrincipal: string | undefined;
  #tenantClientId: string | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly dispatcher: Dispatcher,
    private readonly limits: ConnectionLimits,
    private readonly events: ConnectionEvents,
    private readonly auth: ConnectionAuth,
    private readonly heldBytes: HeldRequestBytes,
    private readonly scheduler: RequestScheduler,
  ) {
    this.remoteAddress = socket.remoteAddress ?? 'unknown';
    this.#scheduled = scheduler.register(() => {
      if (this.#closed) return;
      if (this.#processing) this.#startReady();
      else void this.#process();
    });
    this.#preAuthenticationLimit = !auth.authenticated;
    this.#decoder = new FrameDecoder({
      maxFrameBytes: this.#preAuthenticationLimit
        ? Math.min(limits.maxFrameBytesBeforeAuthentication, limits.maxFrameBytes)
        : limits.maxFrameBytes,
    });
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

  /** Stops reading new requests; the ones already started still finish. */
  stopReading(): void {
    this.socket.pause();
    this.#clearQueue();
  }

  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.scheduler.remove(this.#scheduled, this.#tenantKey);
    this.#clearQueue();
    this.#abort.abort();
    this.socket.destroy();
    this.auth.connectionClosed();
    this.#releaseUnwritten();
    this.events.onClose(this, reason);
  }

  /** Answers that will never be written give up their deferred parts (open segment files). */
  #releaseUnwritten(): void {
    for (const pending of this.#pending.splice(0)) {
      void pending.outcome.then((outcome) => {
        if (outcome.kind === 'respond') releaseParts(outcome.parts);
      });
    }
  }

  /**
   * Closes once everything written so far has reached the socket, for an answer the client must
   * read before the connection goes (a failed authentication). Reading stops at once.
   */
  #closeAfterWrites(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.scheduler.remove(this.#scheduled, this.#tenantKey);
    this.#clearQueue();
    this.#abort.abort();
    this.socket.pause();
    // A client that never reads would keep the socket half-closed; the linger bound ends that.
    this.socket.setTimeout(CLOSE_LINGER_MS, () => this.socket.destroy());
    this.socket.end(() => this.socket.destroy());
    this.auth.connectionClosed();
    this.#releaseUnwritten();
    this.events.onClose(this, reason);
  }

  #onData(chunk: Buffer): void {
    if (this.#closed || this.#failure !== undefined) return;
    if (this.#preAuthenticationLimit && this.auth.authenticated) {
      // Authenticated clients wait for the SaslAuthenticate answer before sending more, so the
      // first frame after it is judged by the listener's own limit.
      this.#preAuthenticationLimit = false;
      this.#decoder.maxFrameBytes = this.limits.maxFrameBytes;
    }
    const { frames, error } = this.#decoder.push(chunk);
    for (const frame of frames) {
      this.#queue.push(frame);
      this.#queuedBytes += frame.length;
    }
    if (error) {
      // The stream cannot be resynchronised after a bad size prefix; requests already complete
      // before it are still answered, then the connection closes. Nothing more is read.
      this.#queue.push(Buffer.alloc(0));
      const reason = this.#refusalReason(error.kind);
      this.#failure =
        reason === 'frame_too_large_before_authentication'
          ? `${error.message} allowed before authentication (limits.maxFrameBytesBeforeAuthentication)`
          : error.message;
      this.socket.pause();
      this.events.onFrameRefused(this, reason, this.#failure);
    }
    this.#reportHeldBytes();
    if (this.#waitingCount >= this.limits.maxInFlightRequestsPerConnection) this.socket.pause();
    if (this.#processing) this.#startReady();
    else void this.#process();
  }

  #refusalReason(kind: string): FrameRefusalReason {
    if (kind !== 'frame-too-large') return 'bad_frame_size';
    return this.#preAuthenticationLimit ? 'frame_too_large_before_authentication' : 'frame_too_large';
  }

  #clearQueue(): void {
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#reportHeldBytes();
  }

  /** Tells the broker's tally what this connection holds now: its decoder's partial frame and queue. */
  #reportHeldBytes(): void {
    const held = this.#closed ? 0 : this.#decoder.bufferedBytes + this.#queuedBytes;
    this.heldBytes.change(held - this.#reportedHeldBytes);
    this.#reportedHeldBytes = held;
  }

  /** Requests read and not yet answered: queued plus started. */
  get #waitingCount(): number {
    return this.#queue.length + this.#pending.length;
  }

  /**
   * Starts queued requests while the rules allow: the first whenever nothing is pending, and after
   * that only Produce requests behind Produce requests.
   */
  #startReady(): void {
    // The request being answered still counts as unanswered while its answer streams out.
    if (this.#streaming) return;
    while (this.#queue.length > 0 && !this.#closed && !this.#muted) {
      const frame = this.#queue[0]!;
      if (this.#pending.length > 0 && !(this.#overlappable && isProduce(frame))) return;
      if (frame.length === 0 && this.#failure) {
        // The bad frame is answered by closing, after everything before it.
        if (this.#pending.length > 0) return;
        this.#queue.shift();
        this.close(`bad frame: ${this.#failure}`);
        return;
      }
      // When connections compete, the request may wait for its turn (request-scheduler.ts).
      // The client is known by its first request's client id and, once it authenticated, by its
      // principal (a SASL connection starts as ANONYMOUS).
      if (this.#tenantKey === undefined || this.#tenantPrincipal !== this.auth.principal) {
        if (this.#tenantKey !== undefined) this.scheduler.remove(this.#scheduled, this.#tenantKey);
        this.#tenantPrincipal = this.auth.principal;
        this.#tenantClientId ??= clientIdOf(frame);
        this.#tenantKey = `${this.#tenantPrincipal}\u0000${this.#tenantClientId}`;
        this.scheduler.assignTenant(this.#scheduled, this.#tenantKey);
      }
      if (!this.scheduler.mayStart(this.#scheduled)) return;
      this.#queue.shift();
      this.#queuedBytes -= frame.length;
      this.#reportHeldBytes();
      // Frames are views of socket chunks; Node allocates a fresh chunk per read, so a view
      // stays valid, and the log may rewrite a batch's offset bytes in place.
      const started = this.dispatcher.start(frame, {
        auth: this.auth,
        clientHost: this.remoteAddress,
        signal: this.#abort.signal,
      });
      const pending: PendingRequest = { outcome: started.outcome, settled: undefined };
      started.outcome.then((outcome) => {
        pending.settled = outcome;
      });
      this.#pending.push(pending);
      this.#overlappable =
        this.#pending.length === 1 ? started.overlappable : this.#overlappable && started.overlappable;
    }
  }

  async #process(): Promise<void> {
    if (this.#processing) return;
    this.#processing = true;
    this.#idle = new Promise<void>((resolve) => {
      this.#markIdle = resolve;
    });
    try {
      for (;;) {
        this.#startReady();
        const oldest = this.#pending[0];
        if (oldest === undefined || this.#closed) return;
        await oldest.outcome;
        if (this.#closed) return;
        // Every answer that is already there goes out in one corked write (one writev).
        let writable = true;
        let throttleMs = 0;
        this.socket.cork();
        while (this.#pending[0]?.settled !== undefined) {
          const outcome = this.#pending.shift()!.settled!;
          if (outcome.kind === 'close') {
            this.socket.uncork();
            this.close(outcome.reason);
            return;
          }
          if (outcome.kind === 'respond' && outcome.parts.some(isDeferredBytes)) {
            if (outcome.throttleMs !== undefined) throttleMs = Math.max(throttleMs, outcome.throttleMs);
            this.socket.uncork();
            writable = await this.#writeStreaming(outcome.parts);
            if (this.#closed) return;
            this.socket.cork();
            continue;
          }
          if (outcome.kind === 'respond') {
            for (const part of outcome.parts) writable = this.socket.write(part as Uint8Array) && writable;
            if (outcome.throttleMs !== undefined) throttleMs = Math.max(throttleMs, outcome.throttleMs);
            if (outcome.closeAfter !== undefined) {
              this.socket.uncork();
              this.#closeAfterWrites(outcome.closeAfter);
              return;
            }
          }
        }
        this.socket.uncork();
        if (!writable) await this.#drained();
        if (this.#closed) return;
        if (throttleMs > 0) await this.#mute(throttleMs);
        if (this.#closed) return;
        if (this.#waitingCount < this.limits.maxInFlightRequestsPerConnection && this.socket.isPaused()) {
          this.socket.resume();
        }
      }
    } finally {
      this.#processing = false;
      this.#markIdle();
    }
  }

  /**
   * Writes an answer that has deferred parts: those are read a chunk at a time, each written when
   * the socket has taken the one before, then released. A deferred part that cannot be read (a
   * storage error) leaves the frame unfinishable, so the connection closes. Resolves with whether
   * the socket can take more at once.
   */
  async #writeStreaming(parts: readonly FramePart[]): Promise<boolean> {
    let writable = true;
    this.#streaming = true;
    // Chunk buffers whose writes have completed, read into again instead of allocating a buffer per
    // chunk: a fresh 256 KiB buffer per chunk was new memory each time, and the garbage collection
    // that external memory pushed took about a third of the broker's time serving a consumer
    // (bench:broker, SDK consume of 1 KiB records). They are dropped with the answer, so an idle
    // connection holds none.
    const spareChunks: Buffer[] = [];
    try {
      for (const part of parts) {
        if (!isDeferredBytes(part)) {
          writable = this.socket.write(part);
          continue;
        }
        for (let fromByte = 0; fromByte < part.length; ) {
          if (!writable) await this.#drained();
          if (this.#closed) return false;
          const buffer = spareChunks.pop() ?? Buffer.allocUnsafe(DEFERRED_CHUNK_BYTES);
          const chunk = await part.read(fromByte, DEFERRED_CHUNK_BYTES, buffer);
          if (this.#closed) return false;
          if (chunk.length === 0)
            throw new Error(`stored records ended ${part.length - fromByte} bytes early`);
          fromByte += chunk.length;
          // The callback runs once the socket is done with the bytes (written, or the write failed
          // and the socket is destroyed), and only then may the buffer be read into again.
          writable = this.socket.write(chunk, () => spareChunks.push(buffer));
        }
      }
      return writable;
    } catch (error) {
      this.close(
        `an answer could not be read from storage: ${error instanceof Error ? error.message : error}`,
      );
      return false;
    } finally {
      this.#streaming = false;
      releaseParts(parts);
    }
  }

  /**
   * A quota's throttle (KIP-219): the answer carrying throttle_time_ms is already written, and the
   * connection is neither read nor served until the time is up (or it closes), so a client that
   * ignores the throttle time gets nothing more done either.
   */
  #mute(throttleMs: number): Promise<void> {
    this.#muted = true;
    this.socket.pause();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#abort.signal.removeEventListener('abort', done);
        this.#muted = false;
        resolve();
      };
      const timer = setTimeout(done, throttleMs);
      this.#abort.signal.addEventListener('abort', done);
    });
  }

  /** Resolves once the socket's buffer drained or the socket closed. */
  #drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        // Both listeners go, whichever fired; one left behind per wait would pile up.
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }
}

function releaseParts(parts: readonly FramePart[]): void {
  for (const part of parts) if (isDeferredBytes(part)) part.release();
}

/**
 * The client id of a request frame, read from its header (int16 length at byte 8, -1 for null)
 * without decoding it; empty when the frame is too short to say.
 */
function clientIdOf(frame: Buffer): string {
  if (frame.length < 10) return '';
  const length = frame.readInt16BE(8);
  if (length < 0 || frame.length < 10 + length) return '';
  return frame.toString('utf8', 10, 10 + length);
}

/** Whether a frame is a Produce request (API key 0), read from its header without decoding it. */
function isProduce(frame: Buffer): boolean {
  return frame.length >= 2 && frame.readInt16BE(0) === 0;
}
