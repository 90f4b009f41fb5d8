import { DecodeError } from '../codec/decode-error';
import { FrameAssembly } from './frame-assembly';

/** Kafka's default `socket.request.max.bytes`: 100 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 100 * 1024 * 1024;

const SIZE_PREFIX_BYTES = 4;
const MAX_INT32 = 0x7fffffff;

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
 * not modify a chunk after pushing it. A frame split across chunks is collected as it arrives (see
 * {@link FrameAssembly}) and copied into one buffer once complete, so the decoder holds what the
 * peer has sent of one frame, at most `maxFrameBytes` plus 4 bytes. A size above the maximum, or a
 * negative one, fails the decoder before any of that frame is buffered; every later push reports
 * the same error.
 */
export class FrameDecoder {
  #maxFrameBytes: number;
  /** The size prefix when it arrives split across chunks. */
  readonly #sizePrefix = Buffer.alloc(SIZE_PREFIX_BYTES);
  #sizePrefixBytes = 0;
  /** The body size of the frame being read, or -1 while waiting for a size prefix. */
  #frameBytes = -1;
  #partial: FrameAssembly | undefined;
  /** Bytes consumed from the stream so far, used to locate errors. */
  #streamOffset = 0;
  #failure: DecodeError | undefined;

  constructor(options: FrameDecoderOptions = {}) {
    this.#maxFrameBytes = checkedMaxFrameBytes(options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES);
  }

  /** The largest frame body accepted now. */
  get maxFrameBytes(): number {
    return this.#maxFrameBytes;
  }

  /**
   * Changes the largest frame body accepted from the next size prefix on (a frame whose size was
   * already accepted is read to its end), as a connection does once it has authenticated.
   */
  set maxFrameBytes(value: number) {
    this.#maxFrameBytes = checkedMaxFrameBytes(value);
  }

  /** The error that stopped this decoder, or `undefined` while it is healthy. */
  get failure(): DecodeError | undefined {
    return this.#failure;
  }

  /** How many bytes of an incomplete frame (size prefix included) the decoder is holding. */
  get bufferedBytes(): number {
    if (this.#frameBytes < 0) return this.#sizePrefixBytes;
    return SIZE_PREFIX_BYTES + (this.#partial?.bytes ?? 0);
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
      if (this.#partial === undefined && available >= this.#frameBytes) {
        // The whole body is in this chunk: hand out a view instead of copying.
        frames.push(input.subarray(offset, offset + this.#frameBytes));
        offset += this.#frameBytes;
        this.#streamOffset += this.#frameBytes;
        this.#frameBytes = -1;
        continue;
      }
      if (available === 0) break;

      this.#partial ??= new FrameAssembly(this.#frameBytes);
      const takeBytes = Math.min(this.#frameBytes - this.#partial.bytes, available);
      const frame = this.#partial.add(input, offset, offset + takeBytes);
      offset += takeBytes;
      this.#streamOffset += takeBytes;
      if (frame !== undefined) {
        frames.push(frame);
        this.#partial = undefined;
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

  #fail(error: DecodeError): void {
    this.#failure = error;
    // Drop whatever was buffered: a failed stream is never read again.
    this.#partial = undefined;
    this.#sizePrefixBytes = 0;
    this.#frameBytes = -1;
  }
}

function checkedMaxFrameBytes(maxFrameBytes: number): number {
  if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 0 || maxFrameBytes > MAX_INT32) {
    throw new RangeError(`maxFrameBytes must be an integer in 0..${MAX_INT32}, got ${maxFrameBytes}`);
  }
  return maxFrameBytes;
}
