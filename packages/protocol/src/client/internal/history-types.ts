/**
 * A series of the broker's lag and throughput history: one value per bucket of `resolutionMs`
 * from `startMs` (a multiple of it), null where no sample was taken.
 */
export type HistoryValues = readonly (number | null)[];

/** One group's lag over time (WeirDescribeLagHistory), as the broker answering sampled it. */
export interface GroupLagHistory {
  readonly groupId: string;
  readonly resolutionMs: number;
  readonly startMs: number;
  readonly totalLag: HistoryValues;
  /** Records per second the group's committed offsets moved over. */
  readonly consumedPerSecond: HistoryValues;
  /** Records per second appended to the group's partitions. */
  readonly producedPerSecond: HistoryValues;
  /** Each partition's lag, sorted by topic and partition; empty unless asked for. */
  readonly partitions: readonly { topic: string; partition: number; lag: HistoryValues }[];
}

/** One topic's client traffic over time, per second (WeirDescribeThroughputHistory). */
export interface TopicThroughputHistory {
  readonly topic: string;
  readonly resolutionMs: number;
  readonly startMs: number;
  readonly recordsInPerSecond: HistoryValues;
  readonly recordsOutPerSecond: HistoryValues;
  readonly bytesInPerSecond: HistoryValues;
  readonly bytesOutPerSecond: HistoryValues;
}

/** What a history call answers: the rows and how often the broker samples. */
export interface HistoryAnswer<T> {
  /** The answering broker's sampling interval, the finest resolution it has. */
  readonly sampleIntervalMs: number;
  readonly rows: readonly T[];
}
