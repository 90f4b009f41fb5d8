import { createHash } from 'node:crypto';

/** Bytes per slot: a 16-byte MD5 digest of the key and an 8-byte offset, as in Kafka's cleaner. */
const HASH_BYTES = 16;
export const KEY_OFFSET_SLOT_BYTES = HASH_BYTES + 8;
/** Kafka's log.cleaner.io.buffer.load.factor: past this share of slots, probing grows long. */
const DEFAULT_LOAD_FACTOR = 0.9;

/**
 * The cleaner's key → latest offset map (Kafka's SkimpyOffsetMap) in a fixed budget: keys are kept
 * as their MD5 digests, so a slot costs 24 bytes whatever the key's size, and the map never grows.
 * A partition with more distinct keys than fit is cleaned in several passes, each over the offsets
 * whose keys did fit (`isFull` tells the cleaner to stop reading). Two keys with the same digest
 * would share a slot; with MD5 over at most a few hundred million keys that is not a concern in
 * practice, and Kafka accepts the same.
 */
export class KeyOffsetMap {
  readonly #hashes: Buffer;
  readonly #offsets: Float64Array;
  readonly #limit: number;
  #size = 0;
  #latestOffset = -1;

  /** `budgetBytes` is log.cleaner.dedupe.buffer.size (one cleaner's share of it). */
  constructor(budgetBytes: number, loadFactor = DEFAULT_LOAD_FACTOR) {
    const slots = Math.floor(budgetBytes / KEY_OFFSET_SLOT_BYTES);
    if (slots < 1)
      throw new Error(`a key offset map needs at least ${KEY_OFFSET_SLOT_BYTES} bytes, got ${budgetBytes}`);
    this.#hashes = Buffer.alloc(slots * HASH_BYTES);
    this.#offsets = new Float64Array(slots).fill(-1);
    this.#limit = Math.max(1, Math.floor(slots * loadFactor));
  }

  /** How many distinct keys the map holds. */
  get size(): number {
    return this.#size;
  }

  /** How many distinct keys it may hold before probing would grow long. */
  get capacity(): number {
    return this.#limit;
  }

  /** True once no new key may be added: the pass ends at the last offset put. */
  get isFull(): boolean {
    return this.#size >= this.#limit;
  }

  /** The highest offset put since the last clear; -1 when none. */
  get latestOffset(): number {
    return this.#latestOffset;
  }

  /**
   * Records `offset` as the latest for `key` (offsets arrive in log order, so a later put of a
   * key replaces the earlier). Returns false, changing nothing, when the key is new and the map is
   * full.
   */
  put(key: Uint8Array, offset: number): boolean {
    const digest = digestOf(key);
    const slot = this.#find(digest);
    if (this.#offsets[slot]! < 0) {
      if (this.isFull) return false;
      digest.copy(this.#hashes, slot * HASH_BYTES);
      this.#size += 1;
    }
    this.#offsets[slot] = offset;
    if (offset > this.#latestOffset) this.#latestOffset = offset;
    return true;
  }

  /** The latest offset recorded for `key`, or undefined. */
  get(key: Uint8Array): number | undefined {
    const offset = this.#offsets[this.#find(digestOf(key))]!;
    return offset < 0 ? undefined : offset;
  }

  clear(): void {
    this.#offsets.fill(-1);
    this.#size = 0;
    this.#latestOffset = -1;
  }

  /** The slot holding `digest`, or the empty slot where it would go (linear probing). */
  #find(digest: Buffer): number {
    const slots = this.#offsets.length;
    let slot = digest.readUInt32LE(0) % slots;
    for (;;) {
      if (this.#offsets[slot]! < 0) return slot;
      if (this.#hashes.compare(digest, 0, HASH_BYTES, slot * HASH_BYTES, (slot + 1) * HASH_BYTES) === 0)
        return slot;
      slot = (slot + 1) % slots;
    }
  }
}

function digestOf(key: Uint8Array): Buffer {
  return createHash('md5').update(key).digest();
}
