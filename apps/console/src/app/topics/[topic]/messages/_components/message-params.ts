import {
  type inferParserType,
  parseAsBoolean,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs';
import type { TailInput } from '../../../../../server/api/schemas/message-tail';
import type { SearchInput } from '../../../../../server/api/schemas/messages';

export const startModes = ['beginning', 'end', 'offset', 'timestamp', 'newest'] as const;
export const decodeModes = ['auto', 'text', 'json', 'hex', 'schema'] as const;

/**
 * Every piece of the message browser's state lives in the URL, so a search, a page of it, the
 * decoder and the open record can be shared as a link and survive a reload. Filters and the stack
 * of earlier cursors are repeated parameters (`f=…&f=…`), as their values may contain commas.
 */
export const messageParams = {
  start: parseAsStringLiteral(startModes).withDefault('beginning'),
  offset: parseAsString.withDefault(''),
  ts: parseAsInteger,
  n: parseAsInteger.withDefault(100),
  p: parseAsString.withDefault(''),
  f: parseAsNativeArrayOf(parseAsString),
  /** Read every partition even when a key filter could narrow the search to the key's one. */
  all: parseAsBoolean.withDefault(false),
  size: parseAsInteger.withDefault(50),
  /** The cursor of the page shown; empty means "from the start position". */
  cursor: parseAsString.withDefault(''),
  /** The cursors of the earlier pages, oldest first, for an exact Previous. */
  prev: parseAsNativeArrayOf(parseAsString),
  decode: parseAsStringLiteral(decodeModes).withDefault('auto'),
  /** The expanded record, `partition:offset`. */
  open: parseAsString.withDefault(''),
  /**
   * Read committed: show what a read_committed consumer sees (no aborted records, nothing past an
   * open transaction). Off by default: every record, each marked with its transaction status.
   */
  rc: parseAsBoolean.withDefault(false),
  /** Bumped by "Run again", so the same search can be repeated from its link. */
  run: parseAsInteger.withDefault(0),
};

export type MessageParams = inferParserType<typeof messageParams>;

/** Parses "0, 2,5" into partition numbers; undefined for empty, null for junk. */
export function parsePartitionList(text: string): number[] | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const parts = trimmed.split(',').map((part) => part.trim());
  if (!parts.every((part) => /^\d{1,7}$/.test(part))) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** Schema decoding happens on the server (the rows then carry `decoded`); the other modes here. */
export function serverDecodeOf(params: Pick<MessageParams, 'decode'>): 'none' | 'schema' {
  return params.decode === 'schema' ? 'schema' : 'none';
}

/** The subscription's input for the URL state. */
export function toSearchInput(topic: string, params: MessageParams): SearchInput {
  return {
    topic,
    decode: serverDecodeOf(params),
    start: params.start,
    startOffset: params.start === 'offset' && params.offset ? params.offset : undefined,
    startTimestampMs: params.start === 'timestamp' ? (params.ts ?? undefined) : undefined,
    newestCount: params.start === 'newest' ? params.n : undefined,
    partitions: parsePartitionList(params.p) ?? undefined,
    filters: params.f.length > 0 ? params.f : undefined,
    cursor: params.cursor || undefined,
    allPartitions: params.all || undefined,
    pageSize: params.size,
    maxValueBytes: 16_384,
    ...isolationOf(params),
  };
}

/** "End (new records only)" without a page cursor is a live tail rather than a finished search. */
export function isLiveTail(params: MessageParams): boolean {
  return params.start === 'end' && params.cursor === '';
}

/** The live tail's input for the URL state: the search's partitions and filters. */
export function toTailInput(topic: string, params: MessageParams): TailInput {
  return {
    topic,
    decode: serverDecodeOf(params),
    partitions: parsePartitionList(params.p) ?? undefined,
    filters: params.f.length > 0 ? params.f : undefined,
    allPartitions: params.all || undefined,
    maxValueBytes: 16_384,
    ...isolationOf(params),
  };
}

/** Read committed when the toggle is on; else left out, the server's default read_uncommitted. */
function isolationOf(params: MessageParams): { isolation?: 'read_committed' } {
  return params.rc ? { isolation: 'read_committed' } : {};
}
