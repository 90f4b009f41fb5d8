import { hashKey128 } from './key-hash';

/** Bytes per slot: a 16-byte hash of the key and an 8-byte offset, as in Kafka's cleaner. */
const HASH_WORDS = 4;
export const KEY_OFFSET_SLOT_BYTES = HASH_WORDS * 4 + 8;
/** Kafka's log.cleaner.io.buffer.load.factor: past this share of slots, probing grows long. */
const DEFAULT_LOAD_FACTOR = 0.9;

/**
 * The cleaner's key → latest offset map (Kafka's SkimpyOffsetMap) in a fixed budget: keys are kept
 * as 128-bit hashes (key-hash.ts), so a slot costs 24 bytes whatever the key's size, and the map
 * never grows. A partition with more distinct keys than fit is cleaned in several passes, each over
 * the offsets whose keys did fit (`isFull` tells the cleaner to stop reading). Two keys with the
 * same hash would share a slot; at 128 bits over at most a few hundred million keys that is not a
 * concern in practice, and Kafka accepts the same of MD5.
 *
 * Keys are given as a range of a buffer (`keyAt`), so the cleaner hashes them where they lie.
 */
export class KeyOffsetMap {
  /**
   * Slot i is words [6i, 6i + 6): the key's hash in four, then the offset's high and low 32 bits,
   * side by side so a probe touches one cache line. The high word is stored plus one, so a zero
   * marks a free slot and fresh memory is an empty map.
   */
  readonly #slots: Uint32Array;
  readonly #totalSlots: number;
  readonly #loadFactor: number;
  /** The slots this fill uses: all of them, or fewer when the caller knows how many keys can come. */
  #slotCount: number;
  #limit: number;
  /** The hash of the key being looked up; one map is used by one cleaner thread at a time. */
  readonly #probe = new Uint32Array(HASH_WORDS);
  #size = 0;
  #latestOffset = -1;

  /** `budgetBytes` is log.cleaner.dedupe.buffer.size (one cleaner's share of it). */
  constructor(budgetBytes: number, loadFactor = DEFAULT_LOAD_FACTOR) {
    const slots = Math.floor(budgetBytes / KEY_OFFSET_SLOT_BYTES);
    if (slots < 1)
      throw new Error(`a key offset map needs at least ${KEY_OFFSET_SLOT_BYTES} bytes, got ${budgetBytes}`);
    this.#totalSlots = slots;
    this.#loadFactor = loadFactor;
    this.#slots = new Uint32Array(slots * SLOT_WORDS);
    this.#slotCount = slots;
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
    return this.putAt(key, 0, key.length, offset);
  }

  /** As {@link put}, for the key in `bytes[start, start + length)`. */
  putAt(bytes: Uint8Array, start: number, length: number, offset: number): boolean {
    const at = this.#find(bytes, start, length);
    const slots = this.#slots;
    if (slots[at + 4] === EMPTY) {
      if (this.#size >= this.#limit) return false;
      const probe = this.#probe;
      slots[at] = probe[0]!;
      slots[at + 1] = probe[1]!;
      slots[at + 2] = probe[2]!;
      slots[at + 3] = probe[3]!;
      this.#size += 1;
    }
    const high = Math.floor(offset / WORD_RANGE);
    slots[at + 4] = high + 1;
    slots[at + 5] = offset - high * WORD_RANGE;
    if (offset > this.#latestOffset) this.#latestOffset = offset;
    return true;
  }

  /** The latest offset recorded for `key`, or undefined. */
  get(key: Uint8Array): number | undefined {
    const offset = this.offsetAt(key, 0, key.length);
    return offset < 0 ? undefined : offset;
  }

  /** The latest offset recorded for the key in `bytes[start, start + length)`, or -1. */
  offsetAt(bytes: Uint8Array, start: number, length: number): number {
    const at = this.#find(bytes, start, length);
    const slots = this.#slots;
    const high = slots[at + 4]!;
    return high === EMPTY ? -1 : (high - 1) * WORD_RANGE + slots[at + 5]!;
  }

  /**
   * Empties the map for a new fill. `maxKeys`, when the caller knows no more keys can come (a
   * dirty range of n offsets has at most n keys), confines the fill to the slots that many keys
   * need: a smaller table misses the processor's caches less, and the next clear is shorter.
   */
  async clear(maxKeys = Number.POSITIVE_INFINITY): Promise<void> {
    // A map of a hundred MiB takes tens of milliseconds to zero: it is done in slices, letting
    // the broker's other work run between them. A map nothing was put in since is zero already.
    const words = this.#size === 0 ? 0 : this.#slotCount * SLOT_WORDS;
    for (let start = 0; start < words; start += CLEAR_SLICE_WORDS) {
      this.#slots.fill(0, start, Math.min(words, start + CLEAR_SLICE_WORDS));
      if (start + CLEAR_SLICE_WORDS < words) await new Promise((resolve) => setImmediate(resolve));
    }
    const wanted = Math.ceil(maxKeys / this.#loadFactor) + 1;
    this.#slotCount = Math.min(this.#totalSlots, Math.max(1, wanted));
    this.#limit = Math.max(1, Math.floor(this.#slotCount * this.#loadFactor));
    this.#size = 0;
    this.#latestOffset = -1;
  }

  /** The first word of the slot holding the key, or of the free slot where it would go (linear probing). */
  #find(bytes: Uint8Array, start: number, length: number): number {
    const probe = this.#probe;
    hashKey128(bytes, start, length, probe);
    const slots = this.#slots;
    const p0 = probe[0]!;
    const p1 = probe[1]!;
    const p2 = probe[2]!;
    const p3 = probe[3]!;
    const end = this.#slotCount * SLOT_WORDS;
    let at = (p0 % this.#slotCount) * SLOT_WORDS;
    for (;;) {
      if (slots[at + 4] === EMPTY) return at;
      if (slots[at] === p0 && slots[at + 1] === p1 && slots[at + 2] === p2 && slots[at + 3] === p3) return at;
      at += SLOT_WORDS;
      if (at === end) at = 0;
    }
  }
}

const SLOT_WORDS = HASH_WORDS + 2;
/** 4 MiB of slots zeroed between two turns of the event loop. */
const CLEAR_SLICE_WORDS = (4 * 1024 * 1024) / 4;
const WORD_RANGE = 0x1_0000_0000;
/** The stored high word of a free slot (a used one holds the offset's high word plus one). */
const EMPTY = 0;
