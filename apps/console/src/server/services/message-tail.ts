import { setTimeout as delay } from 'node:timers/promises';
import { type Client, Consumer, type ScannedRecord } from '@weir/protocol';
import type { TailEvent, TailInput } from '../api/schemas/message-tail';
import { rowMapper } from './message-rows';
import {
  runSearch,
  type SearchBudget,
  type SearchDeps,
  type SearchRequest,
  type SearchStepLimits,
} from './message-search';
import { searchRequestOf } from './messages';
import type { TopicDecoders } from './schema-store';
import { type Cursor, encodeCursor } from './search-cursor';
import { resolveStartPositions } from './start-positions';
import { RowAllowance } from './tail-allowance';

/*
 * The live tail. Waiting is a Fetch long-poll (an SDK Consumer on a client of the tail's own, see
 * BrokerClients.dedicatedClient): the broker answers it as soon as a record is appended at the
 * tail's position, or after `waitMs` with nothing. Reading is the search engine: each round runs
 * the search from the tail's cursor to the current end, so filters, key pruning, payload cuts, the
 * row shape and the partition merge order are the search's own. The Fetch only says when to read.
 */

export interface TailLimits {
  /** How long one Fetch waits at the broker when nothing arrives; an idle tail sends stats this often. */
  readonly waitMs: number;
  /** The shortest time between two rounds: records arriving faster are read and sent in batches. */
  readonly roundIntervalMs: number;
  /**
   * Rows sent per second, at most (a second's worth may come at once). Matches beyond it are
   * skipped and counted, so the tail stays at the end of the log rather than falling behind.
   */
  readonly maxRowsPerSecond: number;
  /** Rows one subscription sends; it then ends (`ended`, reason `row-cap`) and may be resumed. */
  readonly maxRows: number;
  /** The scan budget of one round; a round that spends it continues at once, without skipping. */
  readonly round: SearchBudget;
  /** Rows per `rows` event. */
  readonly rowBatchSize: number;
}

export const DEFAULT_TAIL_LIMITS: TailLimits = {
  waitMs: 1_000,
  roundIntervalMs: 100,
  maxRowsPerSecond: 200,
  maxRows: 100_000,
  round: { totalMs: 1_000, totalRecords: 2_000_000 },
  rowBatchSize: 100,
};

export interface TailDeps extends SearchDeps {
  /** A client the tail owns and closes (its long-poll must not hold up a shared connection). */
  readonly openClient: () => Client;
}

interface TailCounters {
  arrivedRecords: number;
  sentRows: number;
  skippedRecords: number;
}

interface RoundResult {
  /** In offset order per partition, oldest first, as the client prepends them. */
  readonly rows: ScannedRecord[];
  /** Per partition, the high watermark the round read up to. */
  readonly ends: Map<number, bigint>;
  /**
   * Offsets older than the rows shown that the round did not show: the allowance was filled (or
   * the scan budget spent) before it got down to them. The tail skips them to stay live.
   */
  readonly skippedRecords: number;
}

/**
 * One search of the records from `cursor` to the current end, newest first, at most `pageSize`
 * rows: when more arrived than the tail may send, it shows the newest and skips the older ones,
 * so what is shown is what just arrived.
 */
async function readRound(
  deps: SearchDeps,
  request: SearchRequest,
  limits: TailLimits,
  stepLimits: SearchStepLimits,
  signal: AbortSignal,
): Promise<RoundResult | undefined> {
  const rows: ScannedRecord[] = [];
  const from = request.cursor ?? new Map<number, bigint>();
  for await (const event of runSearch(
    deps,
    { ...request, newestFirst: true },
    stepLimits,
    limits.round,
    signal,
  )) {
    if (event.type === 'rows') rows.push(...event.rows);
    if (event.type === 'finished') {
      if (event.cancelled) return undefined;
      // The newest-first cursor is each partition's upper bound of what is left unshown.
      return {
        rows: rows.reverse(),
        ends: new Map(event.progress.partitions.map((position) => [position.partition, position.endOffset])),
        skippedRecords: sumGaps(from, event.nextCursor),
      };
    }
  }
  return undefined;
}

function sumGaps(from: ReadonlyMap<number, bigint>, to: ReadonlyMap<number, bigint>): number {
  let total = 0n;
  for (const [partition, end] of to) {
    const start = from.get(partition) ?? end;
    if (end > start) total += end - start;
  }
  return Number(total);
}

/**
 * Streams the records appended to the selected partitions from their end (or from `input.cursor`)
 * until `signal` aborts: an abort closes the consumer and the tail's client, so a parked Fetch ends
 * at once rather than after `waitMs`.
 */
export async function* streamTail(
  deps: TailDeps,
  input: TailInput,
  limits: TailLimits,
  stepLimits: SearchStepLimits,
  signal: AbortSignal,
  decoders?: TopicDecoders,
): AsyncGenerator<TailEvent> {
  const toRow = rowMapper(decoders);
  const base = searchRequestOf({ ...input, start: 'end', pageSize: 1 });
  const { starts, pruning } = await resolveStartPositions(
    deps.admin,
    base.topic,
    base.start,
    base.partitions,
    base.cursor,
    base.exactKey,
    base.isolation,
  );
  let cursor: Cursor = new Map(starts.map((start) => [start.partition, start.startOffset]));
  let lastEnds: ReadonlyMap<number, bigint> = new Map(
    starts.map((start) => [start.partition, start.endOffset]),
  );
  const counters: TailCounters = { arrivedRecords: 0, sentRows: 0, skippedRecords: 0 };
  const stats = (): TailEvent => ({
    type: 'stats',
    asOfMs: deps.now(),
    cursor: encodeCursor(cursor),
    ...counters,
  });
  yield {
    type: 'started',
    asOfMs: deps.now(),
    cursor: encodeCursor(cursor),
    keyPartition: pruning,
    maxRowsPerSecond: limits.maxRowsPerSecond,
    maxRows: limits.maxRows,
  };
  if (signal.aborted) return;

  const client = deps.openClient();
  // read_uncommitted: any appended record wakes the tail; the search decides what is shown. A
  // read_committed tail wakes when records become visible (the last stable offset moves): its scans
  // stop there, so records past it would wake it again and again with nothing to show.
  const consumer = new Consumer(client, {
    maxWaitMs: limits.waitMs,
    isolationLevel: input.isolation ?? 'read_uncommitted',
    partitionMaxBytes: 64 * 1024,
    maxBytes: 1024 * 1024,
  });
  const stop = () => void consumer.close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    consumer.assign([...cursor].map(([partition, offset]) => ({ topic: base.topic, partition, offset })));
    const allowance = new RowAllowance(limits.maxRowsPerSecond, deps.now());
    // A resumed tail has records waiting behind the end it saw: read them before waiting.
    let pending = sumGaps(cursor, lastEnds) > 0;
    while (!signal.aborted) {
      if (!pending) {
        const woken = await consumer.poll();
        if (signal.aborted) break;
        if (woken.length === 0) {
          yield stats();
          continue;
        }
      }
      const roundStartMs = deps.now();
      const rows = Math.min(allowance.available(roundStartMs), limits.maxRows - counters.sentRows);
      if (rows < 1) {
        // The rate cap is spent: wait for the next row's share of it (a timer, not a loop).
        await delay(allowance.msUntilOne(), undefined, { signal }).catch(() => {});
        pending = true;
        continue;
      }
      const round = await readRound(deps, { ...base, cursor, pageSize: rows }, limits, stepLimits, signal);
      // Aborted while reading: the consumer is closed, and nobody is listening any more.
      if (round === undefined || signal.aborted) break;
      counters.arrivedRecords += sumGaps(lastEnds, round.ends);
      lastEnds = round.ends;
      allowance.spend(round.rows.length);
      counters.sentRows += round.rows.length;
      const rowCapReached = counters.sentRows >= limits.maxRows;
      // Whatever the round did not show is older than what it showed: skipped, so the tail stays
      // live and the next round starts at the end this one saw.
      counters.skippedRecords += round.skippedRecords;
      cursor = round.ends;
      pending = false;
      for (const [partition, offset] of cursor) consumer.seek(base.topic, partition, offset);
      const encoded = encodeCursor(cursor);
      for (let index = 0; index < round.rows.length; index += limits.rowBatchSize) {
        const batch = round.rows.slice(index, index + limits.rowBatchSize).map(toRow);
        yield { type: 'rows', rows: batch, cursor: encoded };
      }
      yield stats();
      if (rowCapReached) {
        yield { type: 'ended', reason: 'row-cap', asOfMs: deps.now(), cursor: encoded, ...counters };
        return;
      }
      const restMs = roundStartMs + limits.roundIntervalMs - deps.now();
      if (restMs > 0) await delay(restMs, undefined, { signal }).catch(() => {});
    }
  } finally {
    signal.removeEventListener('abort', stop);
    await consumer.close();
    await client.close();
  }
}
