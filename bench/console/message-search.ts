import { readScanProbe, type ScanProbe, wallClockMs } from './probed-broker';
import { runSearchStream, type SearchInput, type SearchRun } from './search-stream';
import { sleep } from './stats';

/** Found in no record, so a search with it reads every record of the topic. */
export const NO_MATCH_FILTER = 'value:contains:no-record-contains-this';

/**
 * After an abort, the broker is considered idle once no scan step has run for this long: ten
 * times the gateway's step bound (100 ms), so a step that did start is sure to have ended.
 */
const SETTLE_MS = 1000;

/** Fails a run whose stream did not finish normally, so a broken search is never timed as fast. */
function finished(run: SearchRun, what: string): SearchRun {
  if (run.done === undefined) throw new Error(`${what}: the stream ended without its done event`);
  return run;
}

/** Time from the request to the first batch of rows of an unfiltered search from the beginning. */
export async function timeToFirstRows(consoleUrl: string, topic: string): Promise<number> {
  const run = finished(await runSearchStream(consoleUrl, { topic, start: 'beginning' }), 'unfiltered search');
  if (run.firstRowsMs === undefined) throw new Error('unfiltered search: no rows');
  return run.firstRowsMs;
}

export interface FullScan {
  scannedRecords: number;
  /** Records per second by the engine's own clock (the last progress event). */
  engineRate: number;
  /** Records per second from the request to the done event. */
  wallRate: number;
}

/** A search that matches nothing, so the broker scans the whole topic. */
export async function fullScan(consoleUrl: string, topic: string, expected: number): Promise<FullScan> {
  const input: SearchInput = { topic, start: 'beginning', filters: [NO_MATCH_FILTER] };
  const run = finished(await runSearchStream(consoleUrl, input), 'no-match search');
  const progress = run.lastProgress;
  if (progress === undefined || progress.scannedRecords !== expected || run.rows.length !== 0) {
    throw new Error(
      `no-match search scanned ${progress?.scannedRecords} records and matched ${run.rows.length}; expected ${expected} and 0`,
    );
  }
  return {
    scannedRecords: progress.scannedRecords,
    engineRate: progress.scannedRecords / (progress.elapsedMs / 1000),
    wallRate: progress.scannedRecords / (run.doneMs! / 1000),
  };
}

/** Time to the one row a key filter finds near the end of the topic, and to the done event. */
export async function needleSearch(
  consoleUrl: string,
  topic: string,
  filter: string,
): Promise<{ rowMs: number; doneMs: number; scannedRecords: number }> {
  const run = finished(
    await runSearchStream(consoleUrl, { topic, start: 'beginning', filters: [filter] }),
    'needle search',
  );
  if (run.rows.length !== 1 || run.firstRowsMs === undefined) {
    throw new Error(`needle search found ${run.rows.length} rows, expected 1`);
  }
  return { rowMs: run.firstRowsMs, doneMs: run.doneMs!, scannedRecords: run.done!.scannedRecords };
}

export interface CancelRun {
  /** From the abort until the broker's last scan step ended (0 if none was running or started). */
  latencyMs: number;
  /** Steps still in flight at the abort or begun after it. */
  stepsAfterAbort: number;
  /** Steps begun after the abort: the gateway's loop did not stop in time for them. */
  stepsStartedAfterAbort: number;
}

/**
 * Starts a full scan, aborts the request `delayMs` after the first progress event (so the abort
 * lands at different points of a step), waits until the broker has been idle for `SETTLE_MS`, and
 * reads from the broker's probe when its last scan step ended.
 */
export async function cancelScan(
  consoleUrl: string,
  probePort: number,
  topic: string,
  delayMs: number,
): Promise<CancelRun> {
  const before = await readScanProbe(probePort);
  const controller = new AbortController();
  let abortAtMs = 0;
  let scheduled = false;
  const run = await runSearchStream(
    consoleUrl,
    { topic, start: 'beginning', filters: [NO_MATCH_FILTER] },
    {
      signal: controller.signal,
      onEvent(event) {
        if (event.type !== 'progress' || scheduled) return;
        scheduled = true;
        setTimeout(() => {
          abortAtMs = wallClockMs();
          controller.abort();
        }, delayMs);
      },
    },
  );
  if (!run.aborted) throw new Error(`the scan finished before the abort ${delayMs} ms into it`);
  let probe: ScanProbe = await readScanProbe(probePort);
  // Waits until no step has ended for SETTLE_MS, so a step the gateway began late is counted.
  while (wallClockMs() - Math.max(abortAtMs, probe.lastEndMs) < SETTLE_MS) {
    await sleep(100);
    probe = await readScanProbe(probePort);
  }
  // A probe that saw no step at all would report every cancel as instant.
  if (probe.completed === before.completed) throw new Error('the broker probe saw no scan steps');
  const after = probe.recent.filter((step) => step.endMs > abortAtMs);
  const lastEndMs = Math.max(abortAtMs, ...after.map((step) => step.endMs));
  return {
    latencyMs: lastEndMs - abortAtMs,
    stepsAfterAbort: after.length,
    stepsStartedAfterAbort: after.filter((step) => step.startMs > abortAtMs).length,
  };
}
