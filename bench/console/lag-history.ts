import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser } from '@playwright/test';
import {
  bytesPerSeries,
  groupConsumedKey,
  groupLagKey,
  groupProducedKey,
  HISTORY_FILE,
  type HistorySample,
  HistoryStore,
  historyTiers,
  partitionLagKey,
} from '@weir/broker';
import { formatCount } from '../harness/table';
import type { Row } from './rows';

/*
 * The lag history's rows of the console benchmark (#21 item 2): what the broker's store takes per
 * 1,000 group partitions for a day, and how long the group page's chart takes to draw 24 hours of
 * samples. Both use the broker's own store (stats/history-store.ts) at its default tiers.
 */

/** The broker's default sampling interval (stats.history.sampleIntervalMs). */
const SAMPLE_INTERVAL_MS = 10_000;
const DAY_MS = 86_400_000;
/** The group the chart is drawn for, on the benchmark's message topic. */
export const CHART_GROUP = 'bench-lag-history';
export const CHART_RENDER_TARGET_MS = 300;
const CHART_RUNS = 5;
const WAIT_MS = 30_000;

/** One sampling of `groups` groups of `partitions` partitions each: a lag that rises and falls. */
function samplingOf(groups: number, partitions: number, topic: (group: number) => string, atMs: number) {
  const samples: HistorySample[] = [];
  const partitionSamples: HistorySample[] = [];
  for (let group = 0; group < groups; group++) {
    const groupId = `${CHART_GROUP}-${group}`;
    let total = 0;
    for (let partition = 0; partition < partitions; partition++) {
      // A sawtooth of a few minutes' period, different per partition: the chart's worst case has
      // no flat runs to simplify.
      const lag = Math.round(1000 + 900 * Math.sin(atMs / 240_000 + partition) + ((atMs / 1000) % 500));
      total += lag;
      partitionSamples.push({
        key: partitionLagKey(groupId, topic(group), partition),
        kind: 'gauge',
        value: lag,
      });
    }
    samples.push({ key: groupLagKey(groupId), kind: 'gauge', value: total });
    samples.push({ key: groupConsumedKey(groupId), kind: 'count', value: 500 * partitions });
    samples.push({ key: groupProducedKey(groupId), kind: 'count', value: 480 * partitions });
  }
  return [...samples, ...partitionSamples];
}

/** A store sampled every 10 s over `durationMs` up to `endMs`. */
function sampledStore(
  groups: number,
  partitions: number,
  topic: (group: number) => string,
  durationMs: number,
  endMs: number,
): HistoryStore {
  const tiers = historyTiers(SAMPLE_INTERVAL_MS);
  const store = new HistoryStore(tiers, groups * (partitions + 3));
  for (let atMs = endMs - durationMs; atMs <= endMs; atMs += SAMPLE_INTERVAL_MS)
    store.record(atMs, SAMPLE_INTERVAL_MS, samplingOf(groups, partitions, topic, atMs));
  return store;
}

/**
 * 1,000 group partitions (10 groups × 100) sampled every 10 s for an hour, a day and two days: the
 * file the broker writes is the same size each time, since every series is a fixed ring per tier.
 */
export function lagStorageRows(): Row[] {
  const endMs = Math.floor(Date.now() / 60_000) * 60_000;
  const topic = (group: number) => `bench-lag-topic-${group}`;
  const sizes = [3_600_000, DAY_MS, 2 * DAY_MS].map((durationMs) => {
    const store = sampledStore(10, 100, topic, durationMs, endMs);
    const startedMs = performance.now();
    const bytes = store.encode().length;
    return { durationMs, bytes, series: store.seriesCount, encodeMs: performance.now() - startedMs };
  });
  const [hour, day, twoDays] = sizes;
  const bounded = hour!.bytes === day!.bytes && day!.bytes === twoDays!.bytes;
  const perSeries = bytesPerSeries(historyTiers(SAMPLE_INTERVAL_MS));
  return [
    [
      'lag-history storage per 1,000 group partitions per day',
      `${(day!.bytes / 1_000_000).toFixed(2)} MB (${formatCount(day!.series)} series × ${formatCount(perSeries)} B + keys)`,
      'bounded: the same after 1 h, 24 h and 48 h',
      bounded
        ? 'met'
        : `MISSED (${formatCount(hour!.bytes)} / ${formatCount(day!.bytes)} / ${formatCount(twoDays!.bytes)} B)`,
    ],
    [
      'lag-history file write (encode, per persist)',
      `${day!.encodeMs.toFixed(1)} ms`,
      '(none named; for reference)',
      '',
    ],
  ];
}

/**
 * Writes 24 hours of history for {@link CHART_GROUP}-0 on `partitions` partitions of `topic` into a
 * data directory, before its broker starts, as the broker itself would have written it.
 */
export async function writeChartHistory(dataDir: string, topic: string, partitions: number): Promise<void> {
  const store = sampledStore(1, partitions, () => topic, DAY_MS, Date.now());
  await writeFile(join(dataDir, HISTORY_FILE), store.encode());
}

/** The chart's group id, which the benchmark must create (commit offsets for) on `topic`. */
export function chartGroupId(): string {
  return `${CHART_GROUP}-0`;
}

/**
 * Opens the group page with 24 h of history stacked by partition in fresh pages and reads the time
 * the chart took from handing ECharts the data to its finished frame (`data-render-ms`); the
 * verdict judges the worst run.
 */
export async function lagChartRows(browser: Browser, consoleUrl: string, partitions: number): Promise<Row[]> {
  const times: number[] = [];
  for (let run = 0; run < CHART_RUNS; run++) {
    const context = await browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${consoleUrl}/groups/${encodeURIComponent(chartGroupId())}?history=24h`);
      // A locator, not a page function: the console's CSP refuses evaluating strings.
      const drawn = page.locator('[data-testid="lag-history-chart"][data-render-ms]');
      await drawn.waitFor({ timeout: WAIT_MS });
      times.push(Number(await drawn.getAttribute('data-render-ms')));
    } finally {
      await context.close();
    }
  }
  times.sort((left, right) => left - right);
  const median = times[Math.floor(times.length / 2)]!;
  const worst = times.at(-1)!;
  return [
    [
      `group page chart render, 24 h of samples (${partitions} partitions stacked, 1,440 points each)`,
      `median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (n=${times.length})`,
      `< ${CHART_RENDER_TARGET_MS} ms`,
      worst < CHART_RENDER_TARGET_MS ? 'met' : 'MISSED',
    ],
  ];
}
