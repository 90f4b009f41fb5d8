import { DecodeError } from '../codec/decode-error';

/** Kafka's default `socket.request.max.bytes`: 100 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 100 * 1024 * 1024;

const SIZE_PREFIX_BYTES = 4;
const MAX_INT32 = 0x7fffffff;

// A partial frame's buffer starts at this size (or the frame size, if smaller) and doubles as bytes
// arrive, so memory follows what the peer has actually sent, not what its size prefix claims.
const INITIAL_PARTIAL_CAPACITY_BYTES = 64 * 1024;

/** Settings for a {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** The largest frame body accepted, not counting the 4-byte size prefix. */
  readonly maxFrameBytes?: number;
}

/** What one {@link FrameDecoder.push} produced. */
export interface FramePushResult {
  /** The frames completed by this chunk, in stream order, without their size prefix. */
  readonly frames: Buffer[];
  /**
   * Why the stream cannot be decoded any further, or `undefined` while it is healthy. Frames that
   * completed before the failure are still in `frames`; the connection should close afterwards.
   * The error's `offset` counts bytes from the start of the stream.
   */
  readonly error: DecodeError | undefined;
}

/**
 * Splits a TCP byte stream into Kafka frames: an int32 size, then that many bytes. Chunks may split
 * frames (and size prefixes) anywhere, or hold many frames.
 *
 * A frame that lies inside one chunk is returned as a view of that chunk (no copy), so callers must
 * not modify a chunk after pushing it. A frame split across chunks is assembled into a buffer that
 * grows with the bytes received and never beyond the frame's size, so the decoder holds at most
 * `maxFrameBytes` plus 4 bytes. A size above the maximum, or a negative one, fails the decoder before
 * any of that frame is buffered; every later push reports the same error.
 */
export class FrameDecoder {
  readonly #maxFrameBytes: number;
  /** The size prefix when it arrives split across chunks. */
  readonly #sizePrefix = Buffer.alloc(SIZE_PREFIX_BYTES);
  #sizePrefixBytes = 0;
  /** The body size of the frame being read, or -1 while waiting for a size prefix. */
  #frameBytes = -1;
  #partial: Buffer | undefined;
  #partialBytes = 0;
  /** Bytes consumed from the stream so far, used to locate errors. */
  #streamOffset = 0;
  #failure: DecodeError | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 0 || maxFrameBytes > MAX_INT32) {
      throw new RangeError(`maxFrameBytes must be an integer in 0..${MAX_INT32}, got ${maxFrameBytes}`);
    }
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** The error that stopped this decoder, or `undefined` while it is healthy. */
  get failure(): DecodeError | undefined {
    return this.#failure;
  }

  /** How many bytes of an incomplete frame (size prefix included) the decoder is holding. */
  get bufferedBytes(): number {
    if (this.#frameBytes < 0) return this.#sizePrefixBytes;
    return SIZE_PREFIX_BYTES + this.#partialBytes;
  }

  /** Feeds the next chunk of the stream and returns the frames it completed. */
  push(chunk: Uint8Array): FramePushResult {
    const frames: Buffer[] = [];
    if (this.#failure) return { frames, error: this.#failure };
    const input = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let offset = 0;
    while (offset < input.length) {
      if (this.#frameBytes < 0) {
        const prefixStart = this.#streamOffset - this.#sizePrefixBytes;
        let frameBytes: number;
        if (this.#sizePrefixBytes === 0 && input.length - offset >= SIZE_PREFIX_BYTES) {
          frameBytes = input.readInt32BE(offset);
          offset += SIZE_PREFIX_BYTES;
          this.#streamOffset += SIZE_PREFIX_BYTES;
        } else {
          const copied = input.copy(
            this.#sizePrefix,
            this.#sizePrefixBytes,
            offset,
            offset + SIZE_PREFIX_BYTES,
          );
          offset += copied;
          this.#streamOffset += copied;
          this.#sizePrefixBytes += copied;
          if (this.#sizePrefixBytes < SIZE_PREFIX_BYTES) break;
          frameBytes = this.#sizePrefix.readInt32BE(0);
          this.#sizePrefixBytes = 0;
        }
        const error = this.#checkFrameBytes(frameBytes, prefixStart);
        if (error) {
          this.#fail(error);
          return { frames, error };
        }
        this.#frameBytes = frameBytes;
      }

      const available = input.length - offset;
      if (this.#partialBytes === 0 && available >= this.#frameBytes) {
        // The whole body is in this chunk: hand out a view instead of copying.
        frames.push(input.subarray(offset, offset + this.#frameBytes));
        offset += this.#frameBytes;
        this.#streamOffset += this.#frameBytes;
        this.#frameBytes = -1;
        continue;
      }
      if (available === 0) break;

      const copyBytes = Math.min(this.#frameBytes - this.#partialBytes, available);
      const partial = this.#reservePartial(this.#partialBytes + copyBytes);
      input.copy(partial, this.#partialBytes, offset, offset + copyBytes);
      this.#partialBytes += copyBytes;
      offset += copyBytes;
      this.#streamOffset += copyBytes;
      if (this.#partialBytes === this.#frameBytes) {
        // The buffer never grows past the frame size, so once full it is exactly the frame.
        frames.push(partial);
        this.#partial = undefined;
        this.#partialBytes = 0;
        this.#frameBytes = -1;
      }
    }
    return { frames, error: undefined };
  }

  /**
   * Reports whether the stream ended cleanly: a `'truncated'` error if it stopped inside a frame,
   * `undefined` otherwise (or the earlier failure, if there was one).
   */
  end(): DecodeError | undefined {
    if (this.#failure) return this.#failure;
    if (this.bufferedBytes === 0) return undefined;
    const error = new DecodeError(
      'truncated',
      `stream ended inside a frame with ${this.bufferedBytes} bytes buffered`,
      this.#streamOffset,
    );
    this.#fail(error);
    return error;
  }

  #checkFrameBytes(frameBytes: number, at: number): DecodeError | undefined {
    if (frameBytes < 0) return new DecodeError('invalid-length', `negative frame size ${frameBytes}`, at);
    if (frameBytes > this.#maxFrameBytes) {
      return new DecodeError(
        'frame-too-large',
        `frame of ${frameBytes} bytes exceeds the maximum of ${this.#maxFrameBytes}`,
        at,
      );
    }
    return undefined;
  }

  /** Returns the partial-frame buffer with room for `neededBytes`, growing it by doubling. */
  #reservePartial(neededBytes: number): Buffer {
    const current = this.#partial;
    if (current && current.length >= neededBytes) return current;
    let capacity = current ? current.length * 2 : Math.min(this.#frameBytes, INITIAL_PARTIAL_CAPACITY_BYTES);
    while (capacity < neededBytes) capacity *= 2;
    capacity = Math.min(capacity, this.#frameBytes);
    const grown = Buffer.allocUnsafe(capacity);
    if (current) current.copy(grown, 0, 0, this.#partialBytes);
    this.#partial = grown;
    return grown;
  }

  #fail(error: DecodeError): void {
    this.#failure = error;
    // Drop whatever was buffered: a failed stream is never read again.
    this.#partial = undefined;
    this.#partialBytes = 0;
    this.#sizePrefixBytes = 0;
    this.#frameBytes = -1;
  }
}
