// A Jepsen-style checker for a queue workload's history (cluster-brief §1.2, §4): clients send
// unique values to partitions and poll them back, every operation is recorded as it completes, and
// the history is then checked for the anomalies Jepsen names. Values must be unique across the
// whole history (each send writes a value nobody else writes), which is what lets a value seen at
// two offsets, or two values seen at one offset, be told apart from a retry.

/** How a send ended, as the client saw it. */
export type SendStatus =
  /** Acknowledged: the broker gave the offset it is stored at. */
  | 'ok'
  /** Definitely not written (the client got an error that says so). */
  | 'fail'
  /** Timed out or the connection died: it may or may not have been written. */
  | 'unknown';

/** A send of one value to a partition, completed. `offset` is known for an `ok` send only. */
export interface SendOperation {
  type: 'send';
  /** The client (producer) that sent it; order per client is the order in the history. */
  process: string;
  status: SendStatus;
  partition: number;
  offset?: number;
  value: string;
}

/** One record a poll returned. */
export interface PolledRecord {
  offset: number;
  value: string;
}

/** A poll that returned `records` from one partition, in the order the client received them. */
export interface PollOperation {
  type: 'poll';
  /** The client (consumer) that polled; its position per partition is checked across its polls. */
  process: string;
  partition: number;
  records: readonly PolledRecord[];
}

/**
 * A consumer moved its position on purpose (an explicit seek, an assignment after a rebalance, a
 * reset to the committed offset): its next poll of the partition is checked from `offset` rather
 * than from the last offset it read.
 */
export interface SeekOperation {
  type: 'seek';
  process: string;
  partition: number;
  offset: number;
}

export type HistoryOperation = SendOperation | PollOperation | SeekOperation;

/** The anomaly names of Jepsen's queue checker (jepsen-io/redpanda README, "Queue results"). */
export type AnomalyKind =
  | 'lost-write'
  | 'duplicate'
  | 'inconsistent-offsets'
  | 'nonmonotonic-send'
  | 'nonmonotonic-poll'
  | 'poll-skip'
  | 'unseen';

/** Whether a poll anomaly happened inside one poll's records or between two polls of one client. */
export type PollScope = 'intra-op' | 'inter-op';

export interface Anomaly {
  kind: AnomalyKind;
  partition: number;
  /** One sentence a person can act on, with the values and offsets involved. */
  detail: string;
  /** The history indexes of the operations involved. */
  operations: number[];
  process?: string;
  scope?: PollScope;
  value?: string;
  offsets?: number[];
  values?: string[];
}

export interface HistoryReport {
  /** No anomaly other than `unseen` (or none at all with `requireAllSeen`). */
  valid: boolean;
  anomalies: Anomaly[];
  /** How many anomalies of each kind, every kind listed (0 when none). */
  counts: Record<AnomalyKind, number>;
  /** Sends by status, and values read at least once. */
  stats: { sends: Record<SendStatus, number>; polledRecords: number; valuesRead: number };
}

export interface CheckOptions {
  /**
   * The history ends with a read of everything, so an acknowledged value nobody read is lost, not
   * merely not yet read: `unseen` then makes the history invalid.
   */
  requireAllSeen?: boolean;
}

const ANOMALY_KINDS: readonly AnomalyKind[] = [
  'lost-write',
  'duplicate',
  'inconsistent-offsets',
  'nonmonotonic-send',
  'nonmonotonic-poll',
  'poll-skip',
  'unseen',
];

/** Where a value was seen, and by which operations. */
interface Placement {
  partition: number;
  offset: number;
  operations: number[];
}

/** Checks a completed history; see the anomaly kinds for what each one means. */
export function checkHistory(
  history: readonly HistoryOperation[],
  options: CheckOptions = {},
): HistoryReport {
  const anomalies: Anomaly[] = [];
  const knownOffsets = knownOffsetsByPartition(history);
  anomalies.push(...inconsistentOffsets(history), ...duplicates(history));
  anomalies.push(...nonmonotonicSends(history), ...pollOrder(history, knownOffsets));
  anomalies.push(...lostAndUnseen(history));

  const counts = Object.fromEntries(ANOMALY_KINDS.map((kind) => [kind, 0])) as Record<AnomalyKind, number>;
  for (const anomaly of anomalies) counts[anomaly.kind] += 1;
  const sends: Record<SendStatus, number> = { ok: 0, fail: 0, unknown: 0 };
  let polledRecords = 0;
  const read = new Set<string>();
  for (const operation of history) {
    if (operation.type === 'send') sends[operation.status] += 1;
    if (operation.type !== 'poll') continue;
    polledRecords += operation.records.length;
    for (const record of operation.records) read.add(record.value);
  }
  const valid = anomalies.every((anomaly) => anomaly.kind === 'unseen' && !options.requireAllSeen);
  return { valid, anomalies, counts, stats: { sends, polledRecords, valuesRead: read.size } };
}

/** Every (partition, offset, value) the history shows: acknowledged sends and polled records. */
function* observations(history: readonly HistoryOperation[]) {
  for (const [index, operation] of history.entries()) {
    if (operation.type === 'send' && operation.status === 'ok' && operation.offset !== undefined)
      yield { index, partition: operation.partition, offset: operation.offset, value: operation.value };
    if (operation.type === 'poll')
      for (const record of operation.records)
        yield { index, partition: operation.partition, offset: record.offset, value: record.value };
  }
}

/** The offsets of each partition known to hold a record, from any send or poll. */
function knownOffsetsByPartition(history: readonly HistoryOperation[]): Map<number, number[]> {
  const byPartition = new Map<number, Set<number>>();
  for (const seen of observations(history)) {
    const offsets = byPartition.get(seen.partition) ?? new Set<number>();
    offsets.add(seen.offset);
    byPartition.set(seen.partition, offsets);
  }
  return new Map(
    [...byPartition].map(([partition, offsets]) => [partition, [...offsets].sort((a, b) => a - b)]),
  );
}

/** `inconsistent-offsets`: two different values at one offset of a partition. */
function inconsistentOffsets(history: readonly HistoryOperation[]): Anomaly[] {
  const atOffset = new Map<string, { partition: number; offset: number; values: Map<string, number[]> }>();
  for (const seen of observations(history)) {
    const key = `${seen.partition}:${seen.offset}`;
    const entry = atOffset.get(key) ?? { partition: seen.partition, offset: seen.offset, values: new Map() };
    entry.values.set(seen.value, [...(entry.values.get(seen.value) ?? []), seen.index]);
    atOffset.set(key, entry);
  }
  return [...atOffset.values()]
    .filter((entry) => entry.values.size > 1)
    .map((entry) => {
      const values = [...entry.values.keys()];
      return {
        kind: 'inconsistent-offsets',
        partition: entry.partition,
        detail: `offset ${entry.offset} of partition ${entry.partition} holds ${values.map((v) => JSON.stringify(v)).join(' and ')}`,
        operations: uniqueSorted([...entry.values.values()].flat()),
        offsets: [entry.offset],
        values,
      };
    });
}

/** `duplicate`: one value at two offsets (or two partitions). */
function duplicates(history: readonly HistoryOperation[]): Anomaly[] {
  const placements = new Map<string, Map<string, Placement>>();
  for (const seen of observations(history)) {
    const byPlace = placements.get(seen.value) ?? new Map<string, Placement>();
    const place = `${seen.partition}:${seen.offset}`;
    const placement = byPlace.get(place) ?? {
      partition: seen.partition,
      offset: seen.offset,
      operations: [],
    };
    placement.operations.push(seen.index);
    byPlace.set(place, placement);
    placements.set(seen.value, byPlace);
  }
  const found: Anomaly[] = [];
  for (const [value, byPlace] of placements) {
    if (byPlace.size < 2) continue;
    const places = [...byPlace.values()].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
    found.push({
      kind: 'duplicate',
      partition: places[0]!.partition,
      detail: `${JSON.stringify(value)} is stored ${places.length} times: ${places.map((p) => `partition ${p.partition} offset ${p.offset}`).join(', ')}`,
      operations: uniqueSorted(places.flatMap((p) => p.operations)),
      value,
      offsets: places.map((p) => p.offset),
    });
  }
  return found;
}

/** `nonmonotonic-send`: a producer's later acknowledged send landed at or before an earlier one. */
function nonmonotonicSends(history: readonly HistoryOperation[]): Anomaly[] {
  const last = new Map<string, { offset: number; index: number; value: string }>();
  const found: Anomaly[] = [];
  for (const [index, operation] of history.entries()) {
    if (operation.type !== 'send' || operation.status !== 'ok' || operation.offset === undefined) continue;
    const key = `${operation.process}\u0000${operation.partition}`;
    const previous = last.get(key);
    if (previous && operation.offset <= previous.offset)
      found.push({
        kind: 'nonmonotonic-send',
        partition: operation.partition,
        process: operation.process,
        detail: `${operation.process} sent ${JSON.stringify(operation.value)} to offset ${operation.offset} of partition ${operation.partition} after ${JSON.stringify(previous.value)} went to offset ${previous.offset}`,
        operations: [previous.index, index],
        offsets: [previous.offset, operation.offset],
        values: [previous.value, operation.value],
      });
    last.set(key, { offset: operation.offset, index, value: operation.value });
  }
  return found;
}

/**
 * `nonmonotonic-poll`: a consumer read an offset at or before one it had read, without seeking.
 * `poll-skip`: it went from one offset to a later one past offsets known to hold records. Gaps in
 * offsets alone are not skips: transaction markers and aborted batches take offsets no consumer
 * returns, so only an offset some send or poll showed a value at counts as skipped.
 */
function pollOrder(history: readonly HistoryOperation[], knownOffsets: Map<number, number[]>): Anomaly[] {
  /** Per consumer and partition: the last offset read and where, or the offset it sought to. */
  const position = new Map<string, { offset: number; index: number; sought: boolean }>();
  const found: Anomaly[] = [];
  for (const [index, operation] of history.entries()) {
    if (operation.type === 'send') continue;
    const key = `${operation.process}\u0000${operation.partition}`;
    if (operation.type === 'seek') {
      position.set(key, { offset: operation.offset, index, sought: true });
      continue;
    }
    for (const record of operation.records) {
      const previous = position.get(key);
      position.set(key, { offset: record.offset, index, sought: false });
      if (!previous) continue;
      const scope: PollScope = previous.index === index ? 'intra-op' : 'inter-op';
      const operations = uniqueSorted([previous.index, index]);
      const from = previous.sought ? `its seek to offset ${previous.offset}` : `offset ${previous.offset}`;
      const backwards = previous.sought ? record.offset < previous.offset : record.offset <= previous.offset;
      if (backwards) {
        found.push({
          kind: 'nonmonotonic-poll',
          partition: operation.partition,
          process: operation.process,
          scope,
          detail: `${operation.process} read offset ${record.offset} of partition ${operation.partition} after ${from}`,
          operations,
          offsets: [previous.offset, record.offset],
        });
        continue;
      }
      const lowestExpected = previous.sought ? previous.offset : previous.offset + 1;
      const skipped = (knownOffsets.get(operation.partition) ?? []).filter(
        (offset) => offset >= lowestExpected && offset < record.offset,
      );
      if (skipped.length > 0)
        found.push({
          kind: 'poll-skip',
          partition: operation.partition,
          process: operation.process,
          scope,
          detail: `${operation.process} went from ${from} to offset ${record.offset} of partition ${operation.partition}, skipping offset${skipped.length > 1 ? 's' : ''} ${skipped.join(', ')}`,
          operations,
          offsets: skipped,
        });
    }
  }
  return found;
}

/**
 * `lost-write`: an acknowledged value nobody ever read although a later offset of its partition
 * was read. `unseen`: an acknowledged value nobody read, with nothing after it read either (not
 * yet read, or lost at the end of the log; a final read of everything tells which).
 */
function lostAndUnseen(history: readonly HistoryOperation[]): Anomaly[] {
  const read = new Set<string>();
  const highestRead = new Map<number, { offset: number; index: number }>();
  for (const [index, operation] of history.entries()) {
    if (operation.type !== 'poll') continue;
    for (const record of operation.records) {
      read.add(record.value);
      const highest = highestRead.get(operation.partition);
      if (!highest || record.offset > highest.offset)
        highestRead.set(operation.partition, { offset: record.offset, index });
    }
  }
  const found: Anomaly[] = [];
  for (const [index, operation] of history.entries()) {
    if (operation.type !== 'send' || operation.status !== 'ok' || read.has(operation.value)) continue;
    const highest = highestRead.get(operation.partition);
    const at = operation.offset === undefined ? '' : ` at offset ${operation.offset}`;
    const lost = highest !== undefined && operation.offset !== undefined && highest.offset > operation.offset;
    found.push({
      kind: lost ? 'lost-write' : 'unseen',
      partition: operation.partition,
      process: operation.process,
      detail: lost
        ? `acknowledged ${JSON.stringify(operation.value)}${at} of partition ${operation.partition} was never read, though offset ${highest!.offset} was`
        : `acknowledged ${JSON.stringify(operation.value)}${at} of partition ${operation.partition} has not been read`,
      operations: lost ? [index, highest!.index] : [index],
      value: operation.value,
      offsets: operation.offset === undefined ? [] : [operation.offset],
    });
  }
  return found;
}

function uniqueSorted(numbers: readonly number[]): number[] {
  return [...new Set(numbers)].sort((a, b) => a - b);
}
