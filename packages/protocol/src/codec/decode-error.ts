/**
 * Why a decode failed. Every way a short, lying or malformed input can fail maps to one of these,
 * so callers can answer with the right Kafka error (usually CORRUPT_MESSAGE or INVALID_REQUEST)
 * without looking at message text.
 */
export type DecodeErrorKind =
  /** The input ended before a field it announced. */
  | 'truncated'
  /** A length or count is negative where that is not allowed, or larger than what is left. */
  | 'invalid-length'
  /** A varint ran past its maximum width or a value does not fit its type. */
  | 'invalid-varint'
  /** A field holds a value its type cannot hold (bad UTF-8 is replaced, never an error). */
  | 'invalid-value'
  /** Bytes were left over after a structure that must fill its buffer exactly. */
  | 'trailing-bytes'
  /** A frame announced a size above the configured maximum. */
  | 'frame-too-large'
  /** The API key or version is not one this codec defines. */
  | 'unsupported-version'
  /** A checksum did not match. */
  | 'checksum-mismatch'
  /** Compressed data could not be decompressed. */
  | 'decompression-failed';

/**
 * A decode failure with the byte offset where it was detected. Decoders throw it internally and
 * every public decode entry point converts it into a {@link DecodeResult}, so it never escapes to a
 * caller that did not ask for exceptions.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';

  constructor(
    readonly kind: DecodeErrorKind,
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
  }
}

/** The outcome of a public decode call: the value, or the typed reason it could not be decoded. */
export type DecodeResult<T> = { ok: true; value: T } | { ok: false; error: DecodeError };

/**
 * Runs a decoder and turns any {@link DecodeError} it throws into a failed result. Other exceptions
 * are bugs in the decoder and are rethrown so they fail loudly.
 */
export function tryDecode<T>(decode: () => T): DecodeResult<T> {
  try {
    return { ok: true, value: decode() };
  } catch (error) {
    if (error instanceof DecodeError) return { ok: false, error };
    if (error instanceof RangeError) {
      // Buffer reads past the end raise RangeError; the bounds checks should make this unreachable,
      // but a RangeError from a Buffer method still means "the input was short", never a crash.
      return { ok: false, error: new DecodeError('truncated', error.message, -1) };
    }
    throw error;
  }
}
