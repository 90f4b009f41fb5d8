import type { Browser } from '@playwright/test';
import { formatCount } from '../harness/table';
import { type FirstRender, timeFirstRender, timeSearchKeystrokes } from './browser';
import { cancelScan, fullScan, needleSearch, timeToFirstRows } from './message-search';
import { recordKey } from './seed';
import { formatMs, median, quantile } from './stats';
import { fetchTopicPage, restTopicListUrl, timeGets, topicListUrl } from './topic-list-http';
import {
  CANCEL_DELAYS_MS,
  CANCEL_TARGET_MS,
  FIRST_RENDER_TARGET_MS,
  FIRST_ROWS_RUNS,
  HTTP_CALLS,
  KEYSTROKE_TARGET_MS,
  MESSAGE_TOPIC,
  NEEDLE_INDEX,
  PAGE_SIZE,
  RECORD_COUNT,
  RENDER_RUNS,
  SCAN_RUNS,
  SCAN_TARGET_PER_SECOND,
  SEARCHES,
  TOPIC_COUNT,
} from './workload';

/*
 * The rows of the console benchmark's table, one group per measured surface: measure, result,
 * target and verdict. Each group runs its own measurements.
 */

export type Row = [measure: string, result: string, target: string, verdict: string];
const NO_TARGET = '(none named; for reference)';

export function progress(message: string): void {
  process.stderr.write(`[bench:console] ${message}\n`);
}

function verdict(ok: boolean): string {
  return ok ? 'met' : 'MISSED';
}

function spread(values: readonly number[]): string {
  return `median ${formatMs(median(values))}, p95 ${formatMs(quantile(values, 0.95))} (n=${values.length})`;
}

export async function topicListRows(consoleUrl: string): Promise<Row[]> {
  const first = await fetchTopicPage(consoleUrl, { offset: 0, limit: PAGE_SIZE });
  if (first.totalCount !== TOPIC_COUNT + 1 || first.topics.length !== PAGE_SIZE) {
    throw new Error(`topics.list answered ${first.topics.length} of ${first.totalCount} topics`);
  }
  const lastOffset = TOPIC_COUNT + 1 - PAGE_SIZE;
  const cases: [string, string][] = [
    ['first page', topicListUrl(consoleUrl, { offset: 0, limit: PAGE_SIZE })],
    [
      `last page (offset ${formatCount(lastOffset)})`,
      topicListUrl(consoleUrl, { offset: lastOffset, limit: PAGE_SIZE }),
    ],
    ['search "42"', topicListUrl(consoleUrl, { search: '42', offset: 0, limit: PAGE_SIZE })],
    ['first page over REST /api/v1/topics', restTopicListUrl(consoleUrl, { offset: 0, limit: PAGE_SIZE })],
  ];
  const rows: Row[] = [];
  for (const [label, url] of cases) {
    progress(`topics.list ${label} ×${HTTP_CALLS}`);
    rows.push([
      `topics.list page of ${PAGE_SIZE}, ${label} (HTTP)`,
      spread(await timeGets(url, HTTP_CALLS)),
      NO_TARGET,
      '',
    ]);
  }
  return rows;
}

/**
 * Where the page's own `topics.list` request sits in its first render. A page that prefetches the
 * list on the server sends none (the rows come in the HTML), which the rows then say instead.
 */
function listRequestRows(renders: readonly FirstRender[]): Row[] {
  const fetched = renders.filter((render) => Number.isFinite(render.listRequestMs));
  if (fetched.length === 0) {
    return [['  topics.list request from the page', 'none: the rows came in the HTML', NO_TARGET, '']];
  }
  return [
    [
      '  navigation start → topics.list request sent (scripts booted)',
      spread(fetched.map((render) => render.listRequestMs)),
      NO_TARGET,
      '',
    ],
    [
      '  topics.list request → response complete, in the browser',
      spread(fetched.map((render) => render.listResponseMs - render.listRequestMs)),
      NO_TARGET,
      '',
    ],
  ];
}

export async function browserRows(browser: Browser, consoleUrl: string): Promise<Row[]> {
  progress(`first render of /topics ×${RENDER_RUNS} (fresh browser context each)`);
  const renders = [];
  for (let run = 0; run < RENDER_RUNS; run++) renders.push(await timeFirstRender(browser, consoleUrl));
  // The first navigation also warms the console's server (its first request of the page).
  const [cold, ...warm] = renders;
  const painted = warm.map((render) => render.paintedMs);
  progress(`search keystrokes: ${SEARCHES.join(', ')}`);
  const keystrokes = await timeSearchKeystrokes(browser, consoleUrl, SEARCHES, PAGE_SIZE);
  return [
    [
      '/topics first render: navigation start → first row painted (Chromium)',
      spread(painted),
      `< ${formatCount(FIRST_RENDER_TARGET_MS)} ms`,
      verdict(quantile(painted, 0.95) < FIRST_RENDER_TARGET_MS),
    ],
    [
      '  same, first visit after the console started',
      formatMs(cold!.paintedMs),
      `< ${formatCount(FIRST_RENDER_TARGET_MS)} ms`,
      verdict(cold!.paintedMs < FIRST_RENDER_TARGET_MS),
    ],
    [
      '  navigation start → HTML first byte',
      spread(warm.map((render) => render.responseStartMs)),
      NO_TARGET,
      '',
    ],
    ...listRequestRows(warm),
    [
      '  page.goto → row painted, by the benchmark clock',
      spread(warm.map((render) => render.wallMs)),
      NO_TARGET,
      '',
    ],
    [
      'topic search: keystroke → filtered rows painted',
      spread(keystrokes),
      `< ${KEYSTROKE_TARGET_MS} ms`,
      verdict(quantile(keystrokes, 0.95) < KEYSTROKE_TARGET_MS),
    ],
    [
      '  slowest keystroke',
      formatMs(Math.max(...keystrokes)),
      `< ${KEYSTROKE_TARGET_MS} ms`,
      verdict(Math.max(...keystrokes) < KEYSTROKE_TARGET_MS),
    ],
  ];
}

export async function messageSearchRows(consoleUrl: string, probePort: number): Promise<Row[]> {
  progress(`unfiltered search from the beginning ×${FIRST_ROWS_RUNS}`);
  await timeToFirstRows(consoleUrl, MESSAGE_TOPIC);
  const firstRows: number[] = [];
  for (let run = 0; run < FIRST_ROWS_RUNS; run++)
    firstRows.push(await timeToFirstRows(consoleUrl, MESSAGE_TOPIC));

  progress(`full scans with a filter that matches nothing ×${SCAN_RUNS}`);
  const scans = [];
  for (let run = 0; run < SCAN_RUNS; run++)
    scans.push(await fullScan(consoleUrl, MESSAGE_TOPIC, RECORD_COUNT));
  const engineRates = scans.map((scan) => scan.engineRate);
  const wallRates = scans.map((scan) => scan.wallRate);

  progress('search for one key near the end');
  const needle = await needleSearch(consoleUrl, MESSAGE_TOPIC, `key:equals:${recordKey(NEEDLE_INDEX)}`);

  progress(`cancel mid-scan ×${CANCEL_DELAYS_MS.length}`);
  const cancels = [];
  for (const delayMs of CANCEL_DELAYS_MS)
    cancels.push(await cancelScan(consoleUrl, probePort, MESSAGE_TOPIC, delayMs));
  const latencies = cancels.map((cancel) => cancel.latencyMs);
  const lateSteps = cancels.reduce((sum, cancel) => sum + cancel.stepsStartedAfterAbort, 0);
  const inFlight = cancels.map((cancel) => cancel.stepsAfterAbort).join(', ');

  const rate = (values: number[]) =>
    `median ${formatCount(median(values))} rec/s (runs: ${values.map(formatCount).join(', ')})`;
  return [
    [
      'message search: request → first rows (unfiltered, from the beginning)',
      spread(firstRows),
      NO_TARGET,
      '',
    ],
    [
      `scan rate, ${formatCount(RECORD_COUNT)} records, filter matching none (progress events)`,
      rate(engineRates),
      `≥ ${formatCount(SCAN_TARGET_PER_SECOND)} rec/s`,
      verdict(median(engineRates) >= SCAN_TARGET_PER_SECOND),
    ],
    ['  same, request → done event', rate(wallRates), NO_TARGET, ''],
    [
      `one key near the end (${recordKey(NEEDLE_INDEX)}): request → its row; → done`,
      `${formatMs(needle.rowMs)}; ${formatMs(needle.doneMs)} (${formatCount(needle.scannedRecords)} scanned)`,
      NO_TARGET,
      '',
    ],
    [
      'cancel: SSE request aborted → broker ends its last scan step',
      `${spread(latencies)}, max ${formatMs(Math.max(...latencies))}`,
      `< ${CANCEL_TARGET_MS} ms`,
      verdict(Math.max(...latencies) < CANCEL_TARGET_MS),
    ],
    [
      // A step begun after the abort means the abort reached the gateway only after its loop had
      // checked the signal; the latency above already includes that step.
      '  scan steps ending after the abort, per run; of them begun after it, in all',
      `${inFlight}; ${lateSteps}`,
      NO_TARGET,
      '',
    ],
  ];
}
