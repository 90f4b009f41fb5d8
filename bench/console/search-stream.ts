import { performance } from 'node:perf_hooks';
import { readSse } from './sse';

/** The parts of the gateway's `messages.search` events the benchmark reads (see schemas/messages.ts). */
export type SearchEvent =
  | { type: 'phase'; phase: string }
  | { type: 'progress'; scannedRecords: number; matchedRecords: number; elapsedMs: number }
  | { type: 'rows'; rows: { partition: number; offset: string }[] }
  | { type: 'done'; scannedRecords: number; matchedRecords: number; cancelled: boolean; done: boolean };

export interface SearchInput {
  topic: string;
  start: 'beginning';
  filters?: string[];
  pageSize?: number;
}

/** Times of one streamed search, in ms from the request being sent. */
export interface SearchRun {
  firstRowsMs: number | undefined;
  doneMs: number | undefined;
  rows: { partition: number; offset: string }[];
  /** The last progress event (the engine's own count and clock). */
  lastProgress: Extract<SearchEvent, { type: 'progress' }> | undefined;
  done: Extract<SearchEvent, { type: 'done' }> | undefined;
  aborted: boolean;
}

/** The URL the browser's httpSubscriptionLink opens for this input (no transformer: plain JSON). */
export function searchUrl(consoleUrl: string, input: SearchInput): string {
  return `${consoleUrl}/api/trpc/messages.search?input=${encodeURIComponent(JSON.stringify(input))}`;
}

/**
 * Runs one `messages.search` subscription over SSE, as the console's browser code does, and calls
 * `onEvent` with each event and the ms since the request went out. Aborting `signal` closes the
 * connection, which is how a browser tab stops a search; the run then ends with `aborted` set.
 */
export async function runSearchStream(
  consoleUrl: string,
  input: SearchInput,
  options: { signal?: AbortSignal; onEvent?: (event: SearchEvent, atMs: number) => void } = {},
): Promise<SearchRun> {
  const run: SearchRun = {
    firstRowsMs: undefined,
    doneMs: undefined,
    rows: [],
    lastProgress: undefined,
    done: undefined,
    aborted: false,
  };
  const startMs = performance.now();
  try {
    const response = await fetch(searchUrl(consoleUrl, input), {
      headers: { accept: 'text/event-stream' },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok || response.body === null) {
      throw new Error(`messages.search answered ${response.status}: ${await response.text()}`);
    }
    for await (const sse of readSse(response.body)) {
      if (sse.event === 'serialized-error') throw new Error(`messages.search failed: ${sse.data}`);
      if (sse.event === 'return') break;
      if (sse.event !== 'message') continue;
      const event = JSON.parse(sse.data) as SearchEvent;
      const atMs = performance.now() - startMs;
      if (event.type === 'rows') {
        run.firstRowsMs ??= atMs;
        run.rows.push(...event.rows);
      } else if (event.type === 'progress') {
        run.lastProgress = event;
      } else if (event.type === 'done') {
        run.done = event;
        run.doneMs = atMs;
      }
      options.onEvent?.(event, atMs);
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    run.aborted = true;
  }
  return run;
}
