import type { InternalAdminApi, RecordFilter, ScannedRecord } from '@weir/protocol';
import type { KeyPruning } from './key-pruning';
import { NewestFirstMerge } from './newest-first-merge';
import { type MergePosition, PartitionMerge, type SearchMerge } from './partition-merge';
import type { Cursor } from './search-cursor';
import {
  type OffsetsAdmin,
  type PartitionStart,
  resolveStartPositions,
  type StartSpec,
} from './start-positions';

/*
 * The message search engine. It resolves where each partition starts, then asks the broker to scan
 * in bounded steps (scanRecords: a time and record budget per call), merges the partitions in a
 * deterministic order (oldest first, see partition-merge.ts; newest first for "newest N", see
 * newest-first-merge.ts) and hands out rows as soon as their place in that
 * order is certain. Stopping is not calling again: a cancelled search ends before its next step,
 * so the broker stops within one step.
 */

export interface SearchStepLimits {
  /** Wall time of one scanRecords call. */
  readonly stepMs: number;
  /** Records one scanRecords call examines. */
  readonly stepRecords: number;
}

/** Bounds of one request: a browse page or one streamed search. */
export interface SearchBudget {
  readonly totalMs: number;
  readonly totalRecords: number;
}

export interface SearchLimits extends SearchStepLimits {
  readonly browse: SearchBudget;
  readonly stream: SearchBudget;
  /** Progress events are sent at most this often. */
  readonly progressIntervalMs: number;
  /** Rows per `rows` event of a stream. */
  readonly rowBatchSize: number;
}

export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  stepMs: 100,
  stepRecords: 200_000,
  browse: { totalMs: 3_000, totalRecords: 2_000_000 },
  stream: { totalMs: 60_000, totalRecords: 50_000_000 },
  progressIntervalMs: 250,
  rowBatchSize: 100,
};

export interface SearchDeps {
  readonly admin: OffsetsAdmin;
  readonly internal: Pick<InternalAdminApi, 'scanRecords'>;
  readonly now: () => number;
}

export interface SearchRequest {
  readonly topic: string;
  readonly start: StartSpec;
  readonly partitions?: readonly number[];
  readonly filters: readonly RecordFilter[];
  readonly cursor?: Cursor;
  /** Read only the partition this key hashes to (a `key:equals` filter's value). */
  readonly exactKey?: string;
  readonly pageSize: number;
  readonly maxValueBytes: number;
  /**
   * Hand out rows newest first, reading each partition down from its end: "newest N" always, and
   * the live tail, whose rounds show the newest records when more arrived than it may send.
   */
  readonly newestFirst?: boolean;
  /** read_committed: no aborted records, and each partition read only up to its last stable offset. */
  readonly isolation?: 'read_uncommitted' | 'read_committed';
}

export interface ScanProgress {
  readonly scannedRecords: number;
  readonly scannedBytes: number;
  readonly matchedRecords: number;
  readonly elapsedMs: number;
  readonly partitions: MergePosition[];
}

/** What the engine reports, in order: started, (progress | rows)*, finished. */
export type EngineEvent =
  | {
      readonly type: 'started';
      readonly asOfMs: number;
      readonly cursor: Cursor;
      readonly starts: PartitionStart[];
      readonly pruning: KeyPruning | null;
    }
  | { readonly type: 'progress'; readonly progress: ScanProgress }
  | { readonly type: 'rows'; readonly rows: ScannedRecord[] }
  | {
      readonly type: 'finished';
      readonly nextCursor: Cursor;
      readonly exhausted: boolean;
      readonly budgetExhausted: boolean;
      readonly cancelled: boolean;
      readonly progress: ScanProgress;
    };

/** Counters of one search, shared by its steps. */
interface SearchTally {
  readonly startedAtMs: number;
  taken: number;
  scannedRecords: number;
  scannedBytes: number;
}

/**
 * Asks the broker for one bounded step over the partitions the merge needs and feeds the answer to
 * the merge. Returns false, without calling the broker, once the request's budget is spent.
 */
async function scanStep(
  deps: SearchDeps,
  request: SearchRequest,
  merge: SearchMerge,
  tally: SearchTally,
  limits: SearchStepLimits,
  budget: SearchBudget,
): Promise<boolean> {
  const elapsedMs = deps.now() - tally.startedAtMs;
  if (elapsedMs >= budget.totalMs || tally.scannedRecords >= budget.totalRecords) return false;
  const stepRecords = stepRecordBudget(tally, limits, budget);
  const needs = merge.needs(request.pageSize - tally.taken, stepRecords);
  const result = await deps.internal.scanRecords({
    topic: request.topic,
    partitions: needs.map(({ partition, startOffset, endOffset }) => ({ partition, startOffset, endOffset })),
    filters: request.filters,
    maxMatchesPerPartition: Math.max(...needs.map((need) => need.matches)),
    maxScanRecords: stepRecords,
    maxScanMs: Math.max(1, Math.min(limits.stepMs, budget.totalMs - elapsedMs)),
    maxValueBytes: request.maxValueBytes,
    isolation: request.isolation ?? 'read_uncommitted',
  });
  tally.scannedRecords += result.scannedRecords;
  tally.scannedBytes += result.scannedBytes;
  const byPartition = new Map<number, ScannedRecord[]>();
  for (const record of result.records) {
    const list = byPartition.get(record.partition) ?? [];
    list.push(record);
    byPartition.set(record.partition, list);
  }
  for (const answer of result.partitions) {
    merge.addScan(answer.partition, byPartition.get(answer.partition) ?? [], answer.nextOffset, answer.done);
  }
  return true;
}

/** The records the next scan step may examine: a step's share, within what the request has left. */
function stepRecordBudget(tally: SearchTally, limits: SearchStepLimits, budget: SearchBudget): number {
  return Math.max(1, Math.min(limits.stepRecords, budget.totalRecords - tally.scannedRecords));
}

/** Runs one search; `signal` stops it before the next scan step. */
export async function* runSearch(
  deps: SearchDeps,
  request: SearchRequest,
  limits: SearchStepLimits,
  budget: SearchBudget,
  signal?: AbortSignal,
): AsyncGenerator<EngineEvent> {
  const tally: SearchTally = { startedAtMs: deps.now(), taken: 0, scannedRecords: 0, scannedBytes: 0 };
  const { starts, pruning } = await resolveStartPositions(
    deps.admin,
    request.topic,
    request.start,
    request.partitions,
    request.cursor,
    request.exactKey,
    request.isolation,
  );
  // Newest N reads each partition down from its end, so page 1 holds the newest records.
  const merge: SearchMerge =
    request.start.mode === 'newest' || request.newestFirst === true
      ? new NewestFirstMerge(starts)
      : new PartitionMerge(starts);
  yield { type: 'started', asOfMs: deps.now(), cursor: merge.cursor(), starts, pruning };
  const progress = (): ScanProgress => ({
    scannedRecords: tally.scannedRecords,
    scannedBytes: tally.scannedBytes,
    matchedRecords: tally.taken,
    elapsedMs: deps.now() - tally.startedAtMs,
    partitions: merge.positions(),
  });
  let budgetExhausted = false;
  // Partitions already read to their end can settle rows before any scan, hence take() first.
  for (;;) {
    const rows = merge.take(request.pageSize - tally.taken);
    tally.taken += rows.length;
    if (rows.length > 0) yield { type: 'rows', rows };
    if (signal?.aborted || tally.taken >= request.pageSize) break;
    if (merge.needs(request.pageSize - tally.taken, stepRecordBudget(tally, limits, budget)).length === 0)
      break;
    if (!(await scanStep(deps, request, merge, tally, limits, budget))) {
      budgetExhausted = true;
      break;
    }
    yield { type: 'progress', progress: progress() };
  }
  yield {
    type: 'finished',
    nextCursor: merge.cursor(),
    exhausted: merge.exhausted,
    budgetExhausted,
    cancelled: signal?.aborted ?? false,
    progress: progress(),
  };
}
