/**
 * A 128-bit hash of a byte range (MurmurHash3's x86 128-bit variant), for the cleaner's key map.
 * Kafka's cleaner keys its map by MD5; Node's MD5 costs an object and a native call per key, which
 * made hashing most of a clean's CPU. This one runs on the bytes in place with 32-bit integer
 * arithmetic only. It is not meant to resist a producer crafting collisions (neither is MD5 any
 * longer): two keys that collide share a slot, as in Kafka.
 *
 * The four words go to `out[0..3]`; `out` is the caller's, reused across calls.
 */
export function hashKey128(bytes: Uint8Array, start: number, length: number, out: Uint32Array): void {
  let h1 = SEED;
  let h2 = SEED;
  let h3 = SEED;
  let h4 = SEED;
  const blocksEnd = start + (length & ~15);
  let at = start;
  for (; at < blocksEnd; at += 16) {
    let k1 = word(bytes, at);
    let k2 = word(bytes, at + 4);
    let k3 = word(bytes, at + 8);
    let k4 = word(bytes, at + 12);
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  // The last 0..15 bytes, little-endian into the four lanes, mixed without the lane rotation.
  const tail = length & 15;
  if (tail > 0) {
    let k1 = 0;
    let k2 = 0;
    let k3 = 0;
    let k4 = 0;
    for (let index = tail - 1; index >= 0; index--) {
      const byte = bytes[at + index]!;
      const lane = index >> 2;
      const shift = (index & 3) << 3;
      if (lane === 0) k1 |= byte << shift;
      else if (lane === 1) k2 |= byte << shift;
      else if (lane === 2) k3 |= byte << shift;
      else k4 |= byte << shift;
    }
    if (tail > 12) h4 ^= Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    if (tail > 8) h3 ^= Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    if (tail > 4) h2 ^= Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h1 ^= Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  }
  h1 ^= length;
  h2 ^= length;
  h3 ^= length;
  h4 ^= length;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = finalMix(h1);
  h2 = finalMix(h2);
  h3 = finalMix(h3);
  h4 = finalMix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  out[0] = h1;
  out[1] = h2;
  out[2] = h3;
  out[3] = h4;
}

const SEED = 0x9747b28c | 0;
const C1 = 0x239b961b;
const C2 = 0xab0e9789 | 0;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93 | 0;

function word(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
}

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

function finalMix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
