import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { Admin, Client } from '@weir/protocol';
import { killLiveChildren, type ServiceChild, startServiceChild } from '../broker/run-child';
import { type Column, formatCount, formatTable } from '../harness/table';
import { launchBrowser } from './browser';
import {
  type ConsoleServer,
  currentBuildId,
  ensureConsoleBuild,
  killConsole,
  settledBuildId,
  startConsole,
} from './console-server';
import { chartGroupId, lagChartRows, lagStorageRows, writeChartHistory } from './lag-history';
import { liveTailRows } from './live-tail';
import { browserRows, messageSearchRows, progress, type Row, topicListRows } from './rows';
import { seedRecords, seedTopics, topicName } from './seed';
import { MESSAGE_PARTITIONS, MESSAGE_TOPIC, RECORD_COUNT, TOPIC_COUNT, VALUE_BYTES } from './workload';

/**
 * `npm run bench:console`: the console against the targets of its issue, in one run. A broker in
 * a child process (ephemeral loopback ports, temporary data directory) gets 5,000 topics and one
 * topic of 1,000,000 records of about 100 B; the production console build (`next start`) talks to
 * its internal listener; Debian's Chromium loads the pages. Measured: the topic list (gateway page
 * time, first render in the browser, keystroke to filtered rows) and the streamed message search
 * over SSE (time to first rows, scan rate, cancel latency, seen from the broker's side), and the
 * lag history (the store's bytes per 1,000 group partitions per day, and the group page's chart
 * of 24 hours of samples, written into the data directory before the broker starts), and the live
 * tail's latency from kcat producing a record to its row in the browser. Needs
 * `npm run build -w @weir/console` (built here when .next/BUILD_ID is missing, before the clock).
 */

const SERVICE_START_MS = 60_000;
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** How long a run, once under way, waits for someone else's console build to finish. */
const BUILD_WAIT_MS = 90_000;
/** The measured part is killed after this, children included, so the run always ends by itself. */
const RUN_TIMEOUT_MS = 5 * 60_000;

/** Set once created, so the watchdog can remove it too. */
let dataDir: string | undefined;

/** Kills what this run started and removes its data, for the watchdog and failures. */
function abandon(): void {
  killConsole();
  killLiveChildren();
  // The broker may still be writing as the kill lands, hence the retries on ENOTEMPTY.
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
}

async function main(): Promise<void> {
  await ensureConsoleBuild(BUILD_TIMEOUT_MS);
  const watchdog = setTimeout(() => {
    console.error(
      `bench:console exceeded ${RUN_TIMEOUT_MS} ms; killing the console and the broker (Playwright kills the browser on exit)`,
    );
    abandon();
    process.exit(1);
  }, RUN_TIMEOUT_MS);
  watchdog.unref();

  const directory = await mkdtemp(join(os.tmpdir(), 'weir-bench-console-'));
  dataDir = directory;
  let broker:
    | ServiceChild<{ port: number; internalPort: number; internalToken: string; probePort: number }>
    | undefined;
  let consoleServer: ConsoleServer | undefined;
  let browser: Browser | undefined;
  try {
    // The broker reads its lag history at start: a day of samples of the chart's group on the
    // message topic's partitions, as its own sampler would have written them.
    await writeChartHistory(directory, MESSAGE_TOPIC, MESSAGE_PARTITIONS);
    broker = await startServiceChild(
      'probed-broker',
      { dataDir: directory, flushMs: 1000 },
      SERVICE_START_MS,
    );
    const bootstrap = `127.0.0.1:${broker.value.port}`;
    progress(
      `broker pid ${broker.pid} on ${bootstrap}, internal listener 127.0.0.1:${broker.value.internalPort}`,
    );
    progress(`creating ${formatCount(TOPIC_COUNT)} topics…`);
    const topicSeconds = await seedTopics(bootstrap, TOPIC_COUNT);
    progress(`producing ${formatCount(RECORD_COUNT)} × ${VALUE_BYTES} B to ${MESSAGE_TOPIC}…`);
    const recordSeconds = await seedRecords(
      bootstrap,
      MESSAGE_TOPIC,
      MESSAGE_PARTITIONS,
      RECORD_COUNT,
      VALUE_BYTES,
    );

    // The chart's group must exist for its page: it commits the start of every partition.
    const groupClient = new Client({ bootstrapServers: [bootstrap] });
    try {
      await new Admin(groupClient).resetOffsets(chartGroupId(), 'earliest', { topics: [MESSAGE_TOPIC] });
    } finally {
      await groupClient.close();
    }

    // Seeding takes a minute or more, long enough for someone to rebuild the console meanwhile.
    const buildId = await settledBuildId(BUILD_WAIT_MS);
    if (buildId === undefined)
      throw new Error('the console build disappeared; run `npm run build -w @weir/console`');
    consoleServer = await startConsole({
      internalBootstrap: `127.0.0.1:${broker.value.internalPort}`,
      internalToken: broker.value.internalToken,
      timeoutMs: SERVICE_START_MS,
    });
    progress(`console pid ${consoleServer.pid} at ${consoleServer.url} (build ${buildId})`);
    browser = await launchBrowser();
    // Other work on the machine moves browser timings most; the load average says how busy it was.
    const [startLoad] = os.loadavg();

    const rows: Row[] = [
      ...(await browserRows(browser, consoleServer.url)),
      ...(await topicListRows(consoleServer.url)),
      ...(await messageSearchRows(consoleServer.url, broker.value.probePort)),
      ...lagStorageRows(),
      ...(await lagChartRows(browser, consoleServer.url, MESSAGE_PARTITIONS)),
      ...(await liveTailRows(browser, consoleServer.url, bootstrap)),
    ];

    const [endLoad] = os.loadavg();
    console.log(
      `Weir console: broker in a child process, console = next start of build ${buildId}, Chromium ${browser.version()} headless; ` +
        `${os.cpus().length} CPUs, load average ${startLoad!.toFixed(1)} before the measurements and ${endLoad!.toFixed(1)} after; Node ${process.version}`,
    );
    console.log(
      `Seed: ${formatCount(TOPIC_COUNT)} topics (${topicName(0)} … ${topicName(TOPIC_COUNT - 1)}, 1 partition each) in ${topicSeconds.toFixed(1)} s; ` +
        `${MESSAGE_TOPIC}: ${formatCount(RECORD_COUNT)} records × ${VALUE_BYTES} B over ${MESSAGE_PARTITIONS} partitions in ${recordSeconds.toFixed(1)} s. ` +
        `Verdicts judge the p95 (first render, keystroke), the median (scan rate) and the worst run (cancel).`,
    );
    // Next reads the build lazily, so a rebuild in this checkout during the run mixes builds.
    const finalBuildId = currentBuildId();
    if (finalBuildId !== buildId) {
      console.log(
        `WARNING: the console was rebuilt during the run (${buildId} → ${finalBuildId}); run again.`,
      );
    }
    const columns: Column[] = [
      { title: 'measure' },
      { title: 'result', alignRight: true },
      { title: 'target' },
      { title: 'verdict' },
    ];
    console.log(formatTable(columns, rows));
  } finally {
    await browser?.close().catch(() => undefined);
    await consoleServer?.stop(10_000);
    await broker?.stop(30_000);
    await rm(directory, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    abandon();
    process.exit(1);
  },
);
