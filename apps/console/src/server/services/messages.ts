import { type CompressionType, ErrorCode, type Producer, WeirError } from '@weir/protocol';
import type {
  BrowseInput,
  BrowseResult,
  KeyPartition,
  MessageRow,
  ProduceInput,
  SearchEvent,
  SearchInput,
} from '../api/schemas/messages';
import { exactKeyOf } from './key-pruning';
import { rowMapper } from './message-rows';
import {
  type EngineEvent,
  runSearch,
  type SearchDeps,
  type SearchLimits,
  type SearchRequest,
} from './message-search';
import type { TopicDecoders } from './schema-store';
import { decodeCursor, encodeCursor, parseRecordFilter } from './search-cursor';
import type { StartSpec } from './start-positions';

/** The engine's request for an API input; a missing start parameter is a 400 naming the field. */
export function searchRequestOf(input: BrowseInput | SearchInput): SearchRequest {
  const filters = (input.filters ?? []).map(parseRecordFilter);
  const exactKey = input.allPartitions ? undefined : exactKeyOf(filters);
  return {
    topic: input.topic,
    start: startSpecOf(input),
    ...(input.partitions === undefined ? {} : { partitions: input.partitions }),
    filters,
    ...(input.cursor === undefined ? {} : { cursor: decodeCursor(input.cursor) }),
    ...(exactKey === undefined ? {} : { exactKey }),
    pageSize: input.pageSize,
    maxValueBytes: input.maxValueBytes,
    isolation: input.isolation,
  };
}

function startSpecOf(input: BrowseInput): StartSpec {
  const missing = (field: string): never => {
    throw new RangeError(`${field} is required when start is "${input.start}"`);
  };
  switch (input.start) {
    case 'beginning':
    case 'end':
      return { mode: input.start };
    case 'offset':
      return { mode: 'offset', offset: BigInt(input.startOffset ?? missing('startOffset')) };
    case 'timestamp':
      return { mode: 'timestamp', timestampMs: input.startTimestampMs ?? missing('startTimestampMs') };
    case 'newest':
      return { mode: 'newest', count: input.newestCount ?? missing('newestCount') };
  }
}

function positionsOf(event: Extract<EngineEvent, { type: 'progress' }>['progress']) {
  return event.partitions.map((position) => ({
    partition: position.partition,
    startOffset: position.startOffset.toString(),
    nextOffset: position.nextOffset.toString(),
    endOffset: position.endOffset.toString(),
    done: position.done,
  }));
}

/** One page of messages within the browse budget. */
export async function browseMessages(
  deps: SearchDeps,
  input: BrowseInput,
  limits: SearchLimits,
  decoders?: TopicDecoders,
): Promise<BrowseResult> {
  const toRow = rowMapper(decoders);
  const rows: MessageRow[] = [];
  let asOfMs = deps.now();
  let cursor = '';
  let keyPartition: KeyPartition = null;
  for await (const event of runSearch(deps, searchRequestOf(input), limits, limits.browse)) {
    if (event.type === 'started') {
      asOfMs = event.asOfMs;
      cursor = encodeCursor(event.cursor);
      keyPartition = event.pruning;
    } else if (event.type === 'rows') {
      rows.push(...event.rows.map(toRow));
    } else if (event.type === 'finished') {
      return {
        asOfMs,
        topic: input.topic,
        cursor,
        rows,
        nextCursor: encodeCursor(event.nextCursor),
        partitions: positionsOf(event.progress),
        keyPartition,
        done: event.exhausted,
        budgetExhausted: event.budgetExhausted,
        scannedRecords: event.progress.scannedRecords,
        scannedBytes: event.progress.scannedBytes,
      };
    }
  }
  throw new Error('the search ended without finishing');
}

/**
 * A streamed search: phases, progress at most every `progressIntervalMs`, rows in batches, done.
 * When `signal` aborts (the client went away) the engine stops before its next scan step.
 */
export async function* streamSearch(
  deps: SearchDeps,
  input: SearchInput,
  limits: SearchLimits,
  signal?: AbortSignal,
  decoders?: TopicDecoders,
): AsyncGenerator<SearchEvent> {
  const toRow = rowMapper(decoders);
  yield { type: 'phase', phase: 'resolving-offsets', asOfMs: deps.now(), keyPartition: null };
  let lastProgressMs = Number.NEGATIVE_INFINITY;
  let cursor = '';
  let keyPartition: KeyPartition = null;
  for await (const event of runSearch(deps, searchRequestOf(input), limits, limits.stream, signal)) {
    if (event.type === 'started') {
      cursor = encodeCursor(event.cursor);
      keyPartition = event.pruning;
      yield { type: 'phase', phase: 'scanning', asOfMs: event.asOfMs, keyPartition };
    } else if (event.type === 'progress') {
      const nowMs = deps.now();
      if (nowMs - lastProgressMs < limits.progressIntervalMs) continue;
      lastProgressMs = nowMs;
      yield { type: 'progress', ...progressFields(event.progress), partitions: positionsOf(event.progress) };
    } else if (event.type === 'rows') {
      for (let index = 0; index < event.rows.length; index += limits.rowBatchSize) {
        yield { type: 'rows', rows: event.rows.slice(index, index + limits.rowBatchSize).map(toRow) };
      }
    } else {
      yield { type: 'progress', ...progressFields(event.progress), partitions: positionsOf(event.progress) };
      yield { type: 'phase', phase: 'done', asOfMs: deps.now(), keyPartition };
      yield {
        type: 'done',
        asOfMs: deps.now(),
        cursor,
        nextCursor: encodeCursor(event.nextCursor),
        done: event.exhausted,
        budgetExhausted: event.budgetExhausted,
        cancelled: event.cancelled,
        scannedRecords: event.progress.scannedRecords,
        matchedRecords: event.progress.matchedRecords,
        keyPartition,
      };
    }
  }
}

function progressFields(progress: Extract<EngineEvent, { type: 'progress' }>['progress']) {
  return {
    scannedRecords: progress.scannedRecords,
    scannedBytes: progress.scannedBytes,
    matchedRecords: progress.matchedRecords,
    elapsedMs: progress.elapsedMs,
  };
}

/** One record by its coordinates (a permalink), or NOT_FOUND. */
export async function getMessage(
  deps: Pick<SearchDeps, 'internal'>,
  input: { topic: string; partition: number; offset: string; maxValueBytes: number },
  decoders?: TopicDecoders,
): Promise<MessageRow> {
  const offset = BigInt(input.offset);
  const result = await deps.internal.scanRecords({
    topic: input.topic,
    partitions: [{ partition: input.partition, startOffset: offset, endOffset: offset + 1n }],
    filters: [],
    maxMatchesPerPartition: 1,
    maxScanRecords: 1,
    maxScanMs: 1_000,
    maxValueBytes: input.maxValueBytes,
  });
  const record = result.records.find((candidate) => candidate.offset === offset);
  if (record === undefined) {
    // Outside the log or in a hole compaction left, there is no record to show: not found (404).
    throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, {
      detail: `${input.topic}-${input.partition} has no record at offset ${offset}.`,
    });
  }
  return rowMapper(decoders)(record);
}

function bytesOf(
  payload: { encoding: 'utf8' | 'base64'; data: string } | null | undefined,
): Uint8Array | null {
  if (payload === null || payload === undefined) return null;
  return Buffer.from(payload.data, payload.encoding === 'base64' ? 'base64' : 'utf8');
}

/** Produces one record and waits for the broker's acknowledgement (acks=all). */
export async function produceMessage(
  producerFor: (compression: CompressionType) => Producer,
  input: ProduceInput,
): Promise<{ partition: number; offset: bigint; timestampMs: number }> {
  const [stored] = await producerFor(input.compression).send({
    topic: input.topic,
    messages: [
      {
        key: bytesOf(input.key),
        value: bytesOf(input.value),
        headers: (input.headers ?? []).map((header) => ({ key: header.key, value: bytesOf(header.value) })),
        ...(input.partition === undefined ? {} : { partition: input.partition }),
        ...(input.timestampMs === undefined ? {} : { timestampMs: input.timestampMs }),
      },
    ],
  });
  return { partition: stored!.partition, offset: stored!.offset, timestampMs: stored!.timestampMs };
}
