import { crc32c } from '@weir/protocol';
import { bytesPerSeries, type HistoryTier } from './history-tiers';

/**
 * A gauge keeps the last sample of each bucket (a lag); a count adds the samples up (records
 * produced since the previous sample) and is read back per second of the time its bucket covers.
 */
export type SeriesKind = 'gauge' | 'count';

/** One value of one series at one sampling. */
export interface HistorySample {
  readonly key: string;
  readonly kind: SeriesKind;
  readonly value: number;
}

/** The buckets a read covers: one tier, from `startBucket` to `endBucket` inclusive. */
export interface HistoryWindow {
  readonly tierIndex: number;
  readonly resolutionMs: number;
  readonly startBucket: number;
  readonly endBucket: number;
}

/** A series over a window: one value per bucket, NaN where nothing was sampled. */
export interface SeriesValues {
  readonly resolutionMs: number;
  /** The start of the first bucket, in ms since the epoch (a multiple of `resolutionMs`). */
  readonly startMs: number;
  /** Gauges as sampled; counts per second. */
  readonly values: number[];
}

interface TierState {
  readonly tier: HistoryTier;
  /** Which absolute bucket (time / resolution) each slot holds now; -1 for none. */
  readonly bucketIds: Float64Array;
  /** The sampled time each slot covers, shared by every series since all are sampled together. */
  readonly coveredMs: Float64Array;
}

interface Series {
  readonly kind: SeriesKind;
  /** One ring per tier, NaN where the series had no sample in the slot's bucket. */
  readonly rings: Float64Array[];
  lastSeenMs: number;
}

/** The file could not be read as this store's: damaged, another format, or other tiers. */
export class HistoryFileError extends Error {}

const MAGIC = Buffer.from('WEIRHIST', 'latin1');
const FORMAT_VERSION = 1;

/**
 * Lag and throughput history in bounded memory (docs/architecture.md §9): every series is a ring
 * per tier (stats/history-tiers.ts), so its size never grows with time, and at most `maxSeries`
 * series exist; a series with no sample for as long as the coarsest tier reaches is dropped. All
 * series are sampled at the same moments, so a slot's bucket id and covered time are kept once
 * per tier, and a new bucket is claimed for every series at once (a series absent from a sampling
 * reads as NaN there). Buckets are aligned to multiples of their resolution, so the series of
 * several brokers line up and can be summed.
 */
export class HistoryStore {
  readonly #tiers: TierState[];
  readonly #series = new Map<string, Series>();
  readonly #maxSeries: number;
  #refusedSeries = 0;

  constructor(tiers: readonly HistoryTier[], maxSeries: number) {
    if (tiers.length === 0) throw new RangeError('a history needs at least one tier');
    this.#tiers = tiers.map((tier) => ({
      tier,
      bucketIds: new Float64Array(tier.slots).fill(-1),
      coveredMs: new Float64Array(tier.slots),
    }));
    this.#maxSeries = maxSeries;
  }

  get tiers(): HistoryTier[] {
    return this.#tiers.map((state) => state.tier);
  }

  get seriesCount(): number {
    return this.#series.size;
  }

  /** Series the last sampling could not record because the store was full. */
  get refusedSeries(): number {
    return this.#refusedSeries;
  }

  /** The bytes the rings take now (keys aside): the series count times the bytes per series. */
  get valueBytes(): number {
    return this.#series.size * bytesPerSeries(this.tiers);
  }

  /**
   * Records one sampling at `atMs`, which covered the `elapsedMs` since the previous one. A tier
   * whose slot already holds a later bucket (the clock went back) skips the sampling.
   */
  record(atMs: number, elapsedMs: number, samples: Iterable<HistorySample>): void {
    const slots: number[] = [];
    let coarseTurned = false;
    for (const [index, state] of this.#tiers.entries()) {
      const bucket = Math.floor(atMs / state.tier.resolutionMs);
      const slot = bucket % state.tier.slots;
      const held = state.bucketIds[slot]!;
      if (held > bucket) {
        slots.push(-1);
        continue;
      }
      if (held !== bucket) {
        state.bucketIds[slot] = bucket;
        state.coveredMs[slot] = 0;
        for (const series of this.#series.values()) series.rings[index]![slot] = Number.NaN;
        if (index === this.#tiers.length - 1) coarseTurned = true;
      }
      state.coveredMs[slot] = state.coveredMs[slot]! + elapsedMs;
      slots.push(slot);
    }
    if (coarseTurned) this.#dropStale(atMs);
    this.#refusedSeries = 0;
    for (const sample of samples) {
      const series = this.#seriesFor(sample.key, sample.kind, atMs);
      if (series === undefined) continue;
      series.lastSeenMs = atMs;
      for (const [index, slot] of slots.entries()) {
        if (slot < 0) continue;
        const ring = series.rings[index]!;
        if (series.kind === 'gauge') ring[slot] = sample.value;
        else ring[slot] = (Number.isNaN(ring[slot]!) ? 0 : ring[slot]!) + sample.value;
      }
    }
  }

  /**
   * The buckets to read for `sinceMs`..`nowMs`: the finest tier reaching back to `sinceMs`, else
   * the coarsest, cut to what it holds. A tier counts as reaching back when it falls short by less
   * than one bucket of the next tier, which could not show more of that gap: so "the last hour"
   * asked a few milliseconds before the broker reads it still gets the hour's fine tier.
   */
  window(sinceMs: number, nowMs: number): HistoryWindow {
    let tierIndex = this.#tiers.findIndex(({ tier }, index) => {
      const next = this.#tiers[index + 1];
      return nowMs - sinceMs <= tier.resolutionMs * tier.slots + (next?.tier.resolutionMs ?? 0);
    });
    if (tierIndex < 0) tierIndex = this.#tiers.length - 1;
    const { tier } = this.#tiers[tierIndex]!;
    const endBucket = Math.floor(nowMs / tier.resolutionMs);
    const startBucket = Math.min(
      endBucket,
      Math.max(Math.floor(sinceMs / tier.resolutionMs), endBucket - tier.slots + 1),
    );
    return { tierIndex, resolutionMs: tier.resolutionMs, startBucket, endBucket };
  }

  /** One series over a window; every value NaN when the series is unknown. */
  read(key: string, window: HistoryWindow): SeriesValues {
    const state = this.#tiers[window.tierIndex]!;
    const series = this.#series.get(key);
    const ring = series?.rings[window.tierIndex];
    const values: number[] = [];
    for (let bucket = window.startBucket; bucket <= window.endBucket; bucket++) {
      const slot = bucket % state.tier.slots;
      if (ring === undefined || state.bucketIds[slot] !== bucket) {
        values.push(Number.NaN);
        continue;
      }
      const value = ring[slot]!;
      const coveredMs = state.coveredMs[slot]!;
      if (series!.kind === 'gauge') values.push(value);
      else values.push(Number.isNaN(value) || coveredMs <= 0 ? Number.NaN : (value * 1000) / coveredMs);
    }
    return { resolutionMs: window.resolutionMs, startMs: window.startBucket * window.resolutionMs, values };
  }

  /** Whether a series exists (has been sampled within the coarsest tier's reach). */
  has(key: string): boolean {
    return this.#series.has(key);
  }

  /** The keys of every series, for readers that pick by prefix (a group's partitions). */
  keys(): IterableIterator<string> {
    return this.#series.keys();
  }

  #seriesFor(key: string, kind: SeriesKind, atMs: number): Series | undefined {
    const known = this.#series.get(key);
    if (known !== undefined) return known;
    if (this.#series.size >= this.#maxSeries) {
      this.#refusedSeries += 1;
      return undefined;
    }
    const series: Series = {
      kind,
      rings: this.#tiers.map(({ tier }) => new Float64Array(tier.slots).fill(Number.NaN)),
      lastSeenMs: atMs,
    };
    this.#series.set(key, series);
    return series;
  }

  #dropStale(atMs: number): void {
    const { tier } = this.#tiers[this.#tiers.length - 1]!;
    const oldestKeptMs = atMs - tier.resolutionMs * tier.slots;
    for (const [key, series] of this.#series) {
      if (series.lastSeenMs < oldestKeptMs) this.#series.delete(key);
    }
  }

  /**
   * The whole store as bytes: `WEIRHIST`, the format version (u32), a JSON header's length (u32)
   * and the header (tiers; series keys, kinds and last sampling times), then each tier's bucket
   * ids and covered times and each series' rings as little-endian float64s, and a CRC-32C (u32)
   * of everything before it. Typed arrays are written as they are in memory, which is little
   * endian on every platform Node.js supports here (x64, arm64).
   */
  encode(): Buffer {
    const entries = [...this.#series];
    const header = Buffer.from(
      JSON.stringify({
        tiers: this.tiers,
        series: entries.map(([key, series]) => [key, series.kind, series.lastSeenMs]),
      }),
      'utf8',
    );
    const prefix = Buffer.alloc(MAGIC.length + 8);
    MAGIC.copy(prefix, 0);
    prefix.writeUInt32LE(FORMAT_VERSION, MAGIC.length);
    prefix.writeUInt32LE(header.length, MAGIC.length + 4);
    const parts: Buffer[] = [prefix, header];
    const view = (array: Float64Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    for (const state of this.#tiers) parts.push(view(state.bucketIds), view(state.coveredMs));
    for (const [, series] of entries) for (const ring of series.rings) parts.push(view(ring));
    const body = Buffer.concat(parts);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32LE(crc32c(body), 0);
    return Buffer.concat([body, trailer]);
  }

  /**
   * A store read back from {@link encode}'s bytes. Throws {@link HistoryFileError} when the bytes
   * are damaged or were written for other tiers (the sampling interval changed); the caller then
   * starts empty. Series beyond `maxSeries` (the cap was lowered) are left out.
   */
  static decode(bytes: Buffer, tiers: readonly HistoryTier[], maxSeries: number): HistoryStore {
    if (bytes.length < MAGIC.length + 12 || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
      throw new HistoryFileError('not a history file');
    const body = bytes.subarray(0, bytes.length - 4);
    if (crc32c(body) !== bytes.readUInt32LE(bytes.length - 4))
      throw new HistoryFileError('checksum mismatch');
    const version = bytes.readUInt32LE(MAGIC.length);
    if (version !== FORMAT_VERSION) throw new HistoryFileError(`format version ${version}`);
    const headerLength = bytes.readUInt32LE(MAGIC.length + 4);
    let offset = MAGIC.length + 8;
    const header = JSON.parse(bytes.toString('utf8', offset, offset + headerLength)) as {
      tiers: HistoryTier[];
      series: [string, SeriesKind, number][];
    };
    offset += headerLength;
    const sameTiers =
      header.tiers.length === tiers.length &&
      header.tiers.every(
        (tier, index) =>
          tier.resolutionMs === tiers[index]!.resolutionMs && tier.slots === tiers[index]!.slots,
      );
    if (!sameTiers) throw new HistoryFileError('written for other tiers');
    const store = new HistoryStore(tiers, maxSeries);
    const take = (length: number): Float64Array => {
      const byteLength = length * 8;
      if (offset + byteLength > body.length) throw new HistoryFileError('truncated');
      // A copy: the file's bytes need not be aligned for a float64 view.
      const array = new Float64Array(length);
      Buffer.from(array.buffer).set(body.subarray(offset, offset + byteLength));
      offset += byteLength;
      return array;
    };
    for (const state of store.#tiers) {
      state.bucketIds.set(take(state.tier.slots));
      state.coveredMs.set(take(state.tier.slots));
    }
    for (const [key, kind, lastSeenMs] of header.series) {
      const rings = store.#tiers.map((state) => take(state.tier.slots));
      if (store.#series.size < maxSeries) store.#series.set(key, { kind, rings, lastSeenMs });
    }
    if (offset !== body.length) throw new HistoryFileError('trailing bytes');
    return store;
  }
}
