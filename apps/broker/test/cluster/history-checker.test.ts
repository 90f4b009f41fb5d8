import { describe, expect, it } from 'vitest';
import {
  type AnomalyKind,
  checkHistory,
  type HistoryOperation,
  type PollOperation,
  type SendOperation,
  type SendStatus,
} from './history-checker';

function send(
  process: string,
  partition: number,
  value: string,
  status: SendStatus,
  offset?: number,
): SendOperation {
  return { type: 'send', process, status, partition, value, ...(offset === undefined ? {} : { offset }) };
}
const ok = (process: string, partition: number, offset: number, value: string) =>
  send(process, partition, value, 'ok', offset);

/** A poll of `records` given as `value@offset`. */
function poll(process: string, partition: number, ...records: string[]): PollOperation {
  return {
    type: 'poll',
    process,
    partition,
    records: records.map((record) => {
      const [value, offset] = record.split('@');
      return { value: value!, offset: Number(offset) };
    }),
  };
}

/** The anomalies of `kind` in a history's report. */
function anomaliesOf(history: HistoryOperation[], kind: AnomalyKind) {
  return checkHistory(history).anomalies.filter((anomaly) => anomaly.kind === kind);
}

describe('history checker', () => {
  it('finds nothing wrong in a clean history, offset gaps and unacknowledged sends included', () => {
    const history: HistoryOperation[] = [
      ok('p1', 0, 0, 'a'),
      ok('p2', 1, 0, 'x'),
      ok('p1', 0, 1, 'b'),
      send('p1', 0, 'never', 'fail'),
      send('p2', 1, 'maybe', 'unknown'),
      // Offset 2 of partition 0 is a transaction marker: no record is ever read there.
      ok('p2', 0, 3, 'c'),
      poll('c1', 0, 'a@0', 'b@1'),
      poll('c1', 0, 'c@3'),
      poll('c2', 1, 'x@0', 'maybe@1'),
    ];
    const report = checkHistory(history, { requireAllSeen: true });
    expect(report.anomalies).toEqual([]);
    expect(report.valid).toBe(true);
    expect(Object.values(report.counts).every((count) => count === 0)).toBe(true);
    expect(report.stats).toEqual({ sends: { ok: 4, fail: 1, unknown: 1 }, polledRecords: 5, valuesRead: 5 });
  });

  it('lost-write: an acknowledged value never read although a later offset was', () => {
    const history = [
      ok('p1', 0, 0, 'a'),
      ok('p1', 0, 1, 'b'),
      ok('p1', 0, 2, 'c'),
      poll('c1', 0, 'a@0', 'c@2'),
    ];
    const lost = anomaliesOf(history, 'lost-write');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ partition: 0, value: 'b', offsets: [1], operations: [1, 3] });
    expect(checkHistory(history).valid).toBe(false);
    // The consumer also stepped over the acknowledged offset 1.
    expect(anomaliesOf(history, 'poll-skip')).toMatchObject([{ scope: 'intra-op', offsets: [1] }]);
  });

  it('duplicate: one value stored at two offsets', () => {
    const history = [ok('p1', 0, 0, 'a'), poll('c1', 0, 'a@0', 'a@1')];
    expect(anomaliesOf(history, 'duplicate')).toMatchObject([
      { value: 'a', offsets: [0, 1], operations: [0, 1] },
    ]);
    expect(checkHistory(history).valid).toBe(false);
  });

  it('duplicate: one value in two partitions', () => {
    const history = [ok('p1', 0, 4, 'a'), poll('c1', 1, 'a@7')];
    expect(anomaliesOf(history, 'duplicate')).toMatchObject([{ value: 'a', offsets: [4, 7] }]);
  });

  it('inconsistent-offsets: two values at one offset', () => {
    const history = [
      ok('p1', 0, 0, 'a'),
      send('p2', 0, 'b', 'unknown'),
      poll('c1', 0, 'b@0'),
      poll('c2', 0, 'a@0'),
    ];
    const inconsistent = anomaliesOf(history, 'inconsistent-offsets');
    expect(inconsistent).toMatchObject([
      { partition: 0, offsets: [0], values: ['a', 'b'], operations: [0, 2, 3] },
    ]);
    expect(checkHistory(history).valid).toBe(false);
  });

  it('nonmonotonic-send: a producer’s later send landed at an earlier offset', () => {
    const history = [
      ok('p1', 0, 5, 'a'),
      ok('p2', 0, 3, 'other producer'),
      ok('p1', 0, 4, 'b'),
      poll('c1', 0, 'other producer@3', 'b@4', 'a@5'),
    ];
    const found = anomaliesOf(history, 'nonmonotonic-send');
    expect(found).toMatchObject([{ process: 'p1', offsets: [5, 4], values: ['a', 'b'], operations: [0, 2] }]);
    expect(checkHistory(history).anomalies.map((anomaly) => anomaly.kind)).toEqual(['nonmonotonic-send']);
  });

  it('nonmonotonic-poll: inside one poll and between two polls; a seek makes going back legitimate', () => {
    const acked = [ok('p1', 0, 0, 'a'), ok('p1', 0, 1, 'b')];
    expect(anomaliesOf([...acked, poll('c1', 0, 'a@0', 'b@1', 'a@0')], 'nonmonotonic-poll')).toMatchObject([
      { process: 'c1', scope: 'intra-op', offsets: [1, 0], operations: [2] },
    ]);
    expect(
      anomaliesOf([...acked, poll('c1', 0, 'a@0', 'b@1'), poll('c1', 0, 'b@1')], 'nonmonotonic-poll'),
    ).toMatchObject([{ scope: 'inter-op', offsets: [1, 1], operations: [2, 3] }]);
    const sought: HistoryOperation[] = [
      ...acked,
      poll('c1', 0, 'a@0', 'b@1'),
      { type: 'seek', process: 'c1', partition: 0, offset: 0 },
      poll('c1', 0, 'a@0', 'b@1'),
    ];
    expect(checkHistory(sought, { requireAllSeen: true }).valid).toBe(true);
    // Another consumer's position is its own.
    expect(
      anomaliesOf([...acked, poll('c1', 0, 'a@0', 'b@1'), poll('c2', 0, 'a@0')], 'nonmonotonic-poll'),
    ).toEqual([]);
  });

  it('poll-skip: a consumer stepped over offsets known to hold records, between polls or after a seek', () => {
    const acked = [ok('p1', 0, 0, 'a'), ok('p1', 0, 1, 'b'), ok('p1', 0, 2, 'c')];
    const skip = anomaliesOf([...acked, poll('c1', 0, 'a@0'), poll('c1', 0, 'c@2')], 'poll-skip');
    expect(skip).toMatchObject([{ process: 'c1', scope: 'inter-op', offsets: [1], operations: [3, 4] }]);
    const afterSeek: HistoryOperation[] = [
      ...acked,
      { type: 'seek', process: 'c1', partition: 0, offset: 0 },
    ];
    expect(anomaliesOf([...afterSeek, poll('c1', 0, 'b@1', 'c@2')], 'poll-skip')).toMatchObject([
      { scope: 'inter-op', offsets: [0] },
    ]);
    const seekPast: HistoryOperation[] = [...acked, poll('c1', 0, 'a@0')];
    seekPast.push({ type: 'seek', process: 'c1', partition: 0, offset: 2 }, poll('c1', 0, 'c@2'));
    expect(anomaliesOf(seekPast, 'poll-skip')).toEqual([]);
  });

  it('unseen: acknowledged and not read yet is valid, unless the history ends with a full read', () => {
    const history = [ok('p1', 0, 0, 'a'), ok('p1', 0, 1, 'b'), poll('c1', 0, 'a@0')];
    expect(anomaliesOf(history, 'unseen')).toMatchObject([{ value: 'b', offsets: [1], operations: [1] }]);
    expect(anomaliesOf(history, 'lost-write')).toEqual([]);
    expect(checkHistory(history).valid).toBe(true);
    const finalRead = checkHistory(history, { requireAllSeen: true });
    expect(finalRead.valid).toBe(false);
    expect(finalRead.counts.unseen).toBe(1);
  });
});
