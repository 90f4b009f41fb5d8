const SIZE_PREFIX_BYTES = 4;
const MAX_INT32 = 0x7fffffff;

function totalBytes(parts: readonly Uint8Array[]): number {
  let total = 0;
  for (const part of parts) total += part.length;
  if (total > MAX_INT32) throw new RangeError(`frame of ${total} bytes does not fit an int32 size`);
  return total;
}

/** The 4-byte big-endian size prefix for a frame body of `frameBytes` bytes. */
export function frameSizePrefix(frameBytes: number): Buffer {
  if (!Number.isInteger(frameBytes) || frameBytes < 0 || frameBytes > MAX_INT32) {
    throw new RangeError(`frame size must be an integer in 0..${MAX_INT32}, got ${frameBytes}`);
  }
  const prefix = Buffer.allocUnsafe(SIZE_PREFIX_BYTES);
  prefix.writeInt32BE(frameBytes, 0);
  return prefix;
}

/**
 * One contiguous frame: the int32 size of the payload, then the payload. A list of buffers is
 * framed as their concatenation. The payload is copied; use {@link frameParts} to avoid that.
 */
export function encodeFrame(payload: Uint8Array | readonly Uint8Array[]): Buffer {
  const parts: readonly Uint8Array[] = payload instanceof Uint8Array ? [payload] : payload;
  const frameBytes = totalBytes(parts);
  const frame = Buffer.allocUnsafe(SIZE_PREFIX_BYTES + frameBytes);
  frame.writeInt32BE(frameBytes, 0);
  let offset = SIZE_PREFIX_BYTES;
  for (const part of parts) {
    frame.set(part, offset);
    offset += part.length;
  }
  return frame;
}

/**
 * A frame as a list of buffers, the size prefix first and the parts after it unchanged (no copy), for
 * writing with `writev` or a corked socket.
 */
export function frameParts(parts: readonly Uint8Array[]): Uint8Array[] {
  return [frameSizePrefix(totalBytes(parts)), ...parts];
}
