import type { GroupLagHistory, HistoryAnswer, HistoryValues, TopicThroughputHistory } from '@weir/protocol';

/*
 * Merging the brokers' lag and throughput histories on a cluster (docs/architecture.md §9). Each
 * broker samples what it sees: the groups it coordinates, the client traffic of the partitions it
 * leads. Buckets are aligned to multiples of their resolution on every broker, so a topic's
 * traffic is the brokers' sum bucket by bucket, and a group's lag is taken from whichever broker
 * sampled it in a bucket (its coordinator then; after a failover, another one). Answers of another
 * resolution than the finest one answering (brokers sampling at other intervals) are left out
 * rather than misaligned.
 */

/** Each answer's rows aligned on one grid, or dropped when they do not fit it. */
function onOneGrid<T extends { resolutionMs: number; startMs: number }>(
  answers: readonly HistoryAnswer<T>[],
) {
  const rows = answers.flatMap((answer) => answer.rows);
  const resolutionMs = Math.min(...rows.map((row) => row.resolutionMs).filter((ms) => ms > 0));
  const fitting = rows.filter((row) => row.resolutionMs === resolutionMs);
  const startMs = Math.min(...fitting.map((row) => row.startMs));
  const sampleIntervalMs = Math.min(
    ...answers.map((answer) => answer.sampleIntervalMs).filter((ms) => ms > 0),
    Number.POSITIVE_INFINITY,
  );
  return {
    fitting,
    resolutionMs,
    startMs,
    sampleIntervalMs: Number.isFinite(sampleIntervalMs) ? sampleIntervalMs : -1,
  };
}

/** A series moved onto a grid starting `offset` buckets earlier, `length` long. */
function shifted(values: HistoryValues, offset: number, length: number): (number | null)[] {
  return Array.from({ length }, (_, index) => values[index - offset] ?? null);
}

function combine(
  series: readonly { values: HistoryValues; offset: number }[],
  length: number,
  pick: (known: number, next: number) => number,
): (number | null)[] {
  const merged: (number | null)[] = Array(length).fill(null);
  for (const { values, offset } of series) {
    shifted(values, offset, length).forEach((value, index) => {
      if (value === null) return;
      const known = merged[index];
      merged[index] = known === null || known === undefined ? value : pick(known, value);
    });
  }
  return merged;
}

const sum = (known: number, next: number) => known + next;
/** Two brokers sampling one group in one bucket (a coordinator move): the larger lag, to be safe. */
const larger = (known: number, next: number) => Math.max(known, next);

function gridLength(
  rows: readonly { startMs: number; values: HistoryValues }[],
  startMs: number,
  resolutionMs: number,
) {
  return Math.max(0, ...rows.map((row) => (row.startMs - startMs) / resolutionMs + row.values.length));
}

/** Every broker's answer about the same groups, as one. */
export function mergeLagHistories(
  answers: readonly HistoryAnswer<GroupLagHistory>[],
): HistoryAnswer<GroupLagHistory> {
  if (answers.length === 1) return answers[0]!;
  const { fitting, resolutionMs, startMs, sampleIntervalMs } = onOneGrid(answers);
  const byGroup = new Map<string, GroupLagHistory[]>();
  for (const row of fitting) byGroup.set(row.groupId, [...(byGroup.get(row.groupId) ?? []), row]);
  const rows = [...byGroup].map(([groupId, group]): GroupLagHistory => {
    const length = gridLength(
      group.map((row) => ({ startMs: row.startMs, values: row.totalLag })),
      startMs,
      resolutionMs,
    );
    const of = (values: (row: GroupLagHistory) => HistoryValues) =>
      group.map((row) => ({ values: values(row), offset: (row.startMs - startMs) / resolutionMs }));
    const partitions = new Map<
      string,
      { topic: string; partition: number; series: { values: HistoryValues; offset: number }[] }
    >();
    for (const row of group) {
      for (const partition of row.partitions) {
        const key = `${partition.topic}\u0000${partition.partition}`;
        const known = partitions.get(key) ?? {
          topic: partition.topic,
          partition: partition.partition,
          series: [],
        };
        known.series.push({ values: partition.lag, offset: (row.startMs - startMs) / resolutionMs });
        partitions.set(key, known);
      }
    }
    return {
      groupId,
      resolutionMs,
      startMs,
      totalLag: combine(
        of((row) => row.totalLag),
        length,
        larger,
      ),
      consumedPerSecond: combine(
        of((row) => row.consumedPerSecond),
        length,
        larger,
      ),
      producedPerSecond: combine(
        of((row) => row.producedPerSecond),
        length,
        larger,
      ),
      partitions: [...partitions.values()]
        .sort((left, right) =>
          left.topic < right.topic ? -1 : left.topic > right.topic ? 1 : left.partition - right.partition,
        )
        .map(({ topic, partition, series }) => ({ topic, partition, lag: combine(series, length, larger) })),
    };
  });
  return { sampleIntervalMs, rows };
}

/** Every broker's answer about the same topics, summed. */
export function mergeThroughputHistories(
  answers: readonly HistoryAnswer<TopicThroughputHistory>[],
): HistoryAnswer<TopicThroughputHistory> {
  if (answers.length === 1) return answers[0]!;
  const { fitting, resolutionMs, startMs, sampleIntervalMs } = onOneGrid(answers);
  const byTopic = new Map<string, TopicThroughputHistory[]>();
  for (const row of fitting) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
  const rows = [...byTopic].map(([topic, topicRows]): TopicThroughputHistory => {
    const length = gridLength(
      topicRows.map((row) => ({ startMs: row.startMs, values: row.recordsInPerSecond })),
      startMs,
      resolutionMs,
    );
    const of = (values: (row: TopicThroughputHistory) => HistoryValues) =>
      combine(
        topicRows.map((row) => ({ values: values(row), offset: (row.startMs - startMs) / resolutionMs })),
        length,
        sum,
      );
    return {
      topic,
      resolutionMs,
      startMs,
      recordsInPerSecond: of((row) => row.recordsInPerSecond),
      recordsOutPerSecond: of((row) => row.recordsOutPerSecond),
      bytesInPerSecond: of((row) => row.bytesInPerSecond),
      bytesOutPerSecond: of((row) => row.bytesOutPerSecond),
    };
  });
  return { sampleIntervalMs, rows };
}
