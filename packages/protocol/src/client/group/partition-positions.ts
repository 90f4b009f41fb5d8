import type { PartitionAssignment, StartOffset } from '../consumer';
import { partitionKey } from '../leader-requests';
import type { ConsumerRecord } from '../message';
import type { GenerationOffset, TopicPartition } from './group-consumer-options';
import type { CommittedOffset, OffsetToCommit } from './group-offsets';

/**
 * A group member's bookkeeping per assigned partition: where to start, the position after the last
 * record handed out (stamped with its generation), what was committed last, and which partitions
 * are paused. Keyed by {@link partitionKey}.
 */
export class PartitionPositions {
  /** Next offset after the last record handed out. */
  readonly #processed = new Map<string, GenerationOffset>();
  /** Positions committed last, so auto commit skips partitions that did not move. */
  readonly #committed = new Map<string, bigint>();
  readonly #paused = new Map<string, TopicPartition>();
  /** Start offsets of the assignment, for pointing the partition consumer again after pause/resume. */
  readonly #starts = new Map<string, StartOffset>();

  /** The positions `commit()` would store. */
  processed(): GenerationOffset[] {
    return [...this.#processed.values()];
  }

  /** Positions of `generationId` that moved since they were last committed. */
  movedSinceCommit(generationId: number, only?: ReadonlySet<string>): GenerationOffset[] {
    return [...this.#processed]
      .filter(
        ([key, entry]) =>
          entry.generationId === generationId &&
          (only === undefined || only.has(key)) &&
          this.#committed.get(key) !== entry.offset,
      )
      .map(([, entry]) => entry);
  }

  markProcessed(record: ConsumerRecord, generationId: number): void {
    this.#processed.set(partitionKey(record.topic, record.partition), {
      topic: record.topic,
      partition: record.partition,
      offset: record.offset + 1n,
      generationId,
    });
  }

  /**
   * Marks a poll's records as processed. Only the last record of a partition decides its position,
   * so the bookkeeping runs once per run of records of one partition, not once per record: a poll
   * hands out tens of thousands, and an entry for each was most of the consumer's garbage.
   */
  markAllProcessed(records: readonly ConsumerRecord[], generationId: number): void {
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const next = records[index + 1];
      if (next === undefined || next.partition !== record.partition || next.topic !== record.topic)
        this.markProcessed(record, generationId);
    }
  }

  markCommitted(offsets: readonly OffsetToCommit[]): void {
    for (const entry of offsets)
      this.#committed.set(partitionKey(entry.topic, entry.partition), entry.offset);
  }

  /** Carries every position into a new generation (partitions kept in a cooperative rebalance). */
  restamp(generationId: number): void {
    for (const [key, position] of this.#processed) this.#processed.set(key, { ...position, generationId });
  }

  /**
   * Starts newly assigned partitions at their committed offsets. Returns those without one, which
   * start at `fallback` unless it is undefined (autoOffsetReset none).
   */
  startAt(
    partitions: readonly TopicPartition[],
    committed: readonly CommittedOffset[],
    generationId: number,
    fallback: StartOffset | undefined,
  ): TopicPartition[] {
    const missing: TopicPartition[] = [];
    for (const entry of partitions) {
      const key = partitionKey(entry.topic, entry.partition);
      const found = committed.find(
        (item) => item.topic === entry.topic && item.partition === entry.partition,
      );
      if (found !== undefined && found.offset >= 0n) {
        this.#starts.set(key, found.offset);
        this.#committed.set(key, found.offset);
        this.#processed.set(key, { ...entry, offset: found.offset, generationId });
      } else {
        missing.push(entry);
        if (fallback !== undefined) this.#starts.set(key, fallback);
      }
    }
    return missing;
  }

  /** Moves a partition's position; a numeric offset is also what the next commit stores. */
  seek(entry: TopicPartition, offset: StartOffset, generationId: number): void {
    const key = partitionKey(entry.topic, entry.partition);
    this.#starts.set(key, offset);
    if (typeof offset === 'bigint' || typeof offset === 'number')
      this.#processed.set(key, { ...entry, offset: BigInt(offset), generationId });
    else this.#processed.delete(key);
  }

  pause(entry: TopicPartition): void {
    this.#paused.set(partitionKey(entry.topic, entry.partition), entry);
  }

  resume(entry: TopicPartition): void {
    this.#paused.delete(partitionKey(entry.topic, entry.partition));
  }

  paused(): TopicPartition[] {
    return [...this.#paused.values()];
  }

  isPaused(topic: string, partition: number): boolean {
    return this.#paused.has(partitionKey(topic, partition));
  }

  /**
   * The records to hand out, in order: not those of paused partitions, nor those below the position
   * (fetched again after a pause). A partition's pause and position are looked up once per run of
   * its records rather than per record; `records` itself comes back when every record passes, as it
   * nearly always does.
   */
  newRecords(records: ConsumerRecord[]): ConsumerRecord[] {
    let kept: ConsumerRecord[] | undefined;
    let runTopic = '';
    let runPartition = -1;
    let paused = false;
    let position: bigint | undefined;
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      if (index === 0 || record.partition !== runPartition || record.topic !== runTopic) {
        runTopic = record.topic;
        runPartition = record.partition;
        const key = partitionKey(runTopic, runPartition);
        paused = this.#paused.has(key);
        position = this.#processed.get(key)?.offset;
      }
      if (!paused && (position === undefined || record.offset >= position)) kept?.push(record);
      else kept ??= records.slice(0, index);
    }
    return kept ?? records;
  }

  /** What the partition consumer should read: unpaused partitions with a known start, from their position. */
  fetchList(assignment: readonly TopicPartition[]): PartitionAssignment[] {
    const list: PartitionAssignment[] = [];
    for (const entry of assignment) {
      const key = partitionKey(entry.topic, entry.partition);
      if (this.#paused.has(key)) continue;
      const position = this.#processed.get(key)?.offset ?? this.#starts.get(key);
      if (position !== undefined) list.push({ ...entry, offset: position });
    }
    return list;
  }

  /** Forgets the given partitions (revoked), or all of them. */
  forget(keys?: Iterable<string>): void {
    if (keys === undefined) {
      this.#processed.clear();
      this.#committed.clear();
      this.#paused.clear();
      this.#starts.clear();
      return;
    }
    for (const key of keys) {
      this.#processed.delete(key);
      this.#committed.delete(key);
      this.#paused.delete(key);
      this.#starts.delete(key);
    }
  }
}
