import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { Admin, Client, Producer } from '@weir/protocol';
import { benchValue } from '../broker/phase';
import { runChild, type ServiceChild, startServiceChild } from '../broker/run-child';
import type { LatencyRun } from '../broker/sdk-client';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { type BackgroundLoad, fuzzLoad, metadataLoop, slowConsumers } from './load-generators';
import { sampleResidentPeak } from './rss-sampler';

/**
 * `npm run bench:load`: one producer's produce latency (SDK, acks=all, one record per send at a
 * fixed rate, in its own process) alone and beside (a) 200 connections looping ApiVersions +
 * Metadata, (b) 40 slow consumers asking for a whole partition with max_bytes 2^31−1 and reading
 * a little every 100 ms, (c) the wire fuzzer's frames on 4 connections at a time; one broker in a
 * child process, in one run, with the broker's peak RSS per row. Targets (issue 14): p99 within 2×
 * of alone beside each load, broker RSS peak under 512 MB beside the slow consumers. The slow
 * consumers run last among the loads: memory the broker takes for them is not given back to the
 * system at once, and would show in the peaks of the rows after them.
 */

const LATENCY_RATE_PER_SECOND = 500;
const LATENCY_VALUE_BYTES = 100;
const LATENCY_WARMUP_SECONDS = 1;
const LATENCY_SECONDS = 8;
const METADATA_CONNECTIONS = 200;
const SLOW_CONSUMERS = 40;
/** What the slow consumers' partition holds: each of their answers is this big. */
const SLOW_PARTITION_BYTES = 24 * 1024 * 1024;
const SLOW_RECORD_BYTES = 1024;
const SLOW_READ = { tickMs: 100, bytesPerTick: 64 * 1024 };
const FUZZ_CONNECTIONS = 4;
const FUZZ_SEED = 14;
const P99_TARGET_FACTOR = 2;
const RSS_TARGET_BYTES = 512 * 1024 * 1024;
const RUN_TIMEOUT_MS = 10 * 60_000;
const MB = 1024 * 1024;

interface Row {
  load: string;
  latency: LatencyRun;
  rssPeakBytes: number;
  loadSent: number;
}

async function fill(client: Client, topic: string, bytes: number): Promise<void> {
  const producer = new Producer(client, { acks: 1 });
  const value = benchValue(SLOW_RECORD_BYTES);
  const perSend = 500;
  try {
    for (let written = 0; written < bytes; written += perSend * SLOW_RECORD_BYTES) {
      await producer.send({
        topic,
        messages: Array.from({ length: perSend }, () => ({ value, partition: 0 })),
      });
    }
  } finally {
    await producer.close();
  }
}

/** Runs the latency producer while `load` (if any) runs, sampling the broker's RSS meanwhile. */
async function measure(
  broker: ServiceChild<{ port: number }>,
  bootstrap: string,
  name: string,
  startLoad: (() => Promise<BackgroundLoad> | BackgroundLoad) | undefined,
): Promise<Row> {
  console.error(`${name}…`);
  const sampler = sampleResidentPeak(broker.pid);
  const load = await startLoad?.();
  try {
    const latency = await runChild(
      'sdk-latency',
      {
        bootstrap,
        topic: 'latency',
        valueBytes: LATENCY_VALUE_BYTES,
        acks: -1,
        ratePerSecond: LATENCY_RATE_PER_SECOND,
        warmupSeconds: LATENCY_WARMUP_SECONDS,
        seconds: LATENCY_SECONDS,
      },
      { timeoutMs: 180_000 },
    );
    return { load: name, latency, rssPeakBytes: sampler.stop(), loadSent: load?.sent() ?? 0 };
  } finally {
    sampler.stop();
    await load?.stop();
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(os.tmpdir(), 'weir-bench-load-'));
  let broker: ServiceChild<{ port: number }> | undefined;
  try {
    broker = await startServiceChild('weir-broker', { dataDir, flushMs: 100 }, 30_000);
    const bootstrap = `127.0.0.1:${broker.value.port}`;
    const port = broker.value.port;
    console.error(`broker pid ${broker.pid} on ${bootstrap}, data in ${dataDir}`);
    const client = new Client({ bootstrapServers: [bootstrap], clientId: 'bench-load' });
    try {
      await new Admin(client).createTopics([
        { name: 'latency', partitions: 1 },
        { name: 'slow', partitions: 1 },
        { name: 'fuzz-target', partitions: 1 },
      ]);
      console.error(`filling the slow consumers' partition with ${SLOW_PARTITION_BYTES / MB} MiB…`);
      await fill(client, 'slow', SLOW_PARTITION_BYTES);
    } finally {
      await client.close();
    }

    const rows: Row[] = [];
    rows.push(await measure(broker, bootstrap, 'alone', undefined));
    rows.push(
      await measure(
        broker,
        bootstrap,
        `(a) beside ${METADATA_CONNECTIONS} connections looping ApiVersions+Metadata`,
        () => metadataLoop(port, METADATA_CONNECTIONS),
      ),
    );
    rows.push(
      await measure(broker, bootstrap, `(c) beside the wire fuzzer (${FUZZ_CONNECTIONS} connections)`, () =>
        fuzzLoad(port, FUZZ_SEED, FUZZ_CONNECTIONS),
      ),
    );

    rows.push(
      await measure(broker, bootstrap, `(b) beside ${SLOW_CONSUMERS} slow consumers (max_bytes 2^31-1)`, () =>
        slowConsumers(port, 'slow', SLOW_CONSUMERS, SLOW_READ),
      ),
    );
    // Measured again at the end, so a drift of this shared machine shows in the table.
    rows.push(await measure(broker, bootstrap, 'alone, after the loads', undefined));
    const alone = rows[0]!;
    const columns: Column[] = [
      { title: 'load' },
      { title: 'sent', alignRight: true },
      { title: 'p50 ms', alignRight: true },
      { title: 'p99 ms', alignRight: true },
      { title: 'alone p99 ms', alignRight: true },
      { title: 'p99 vs alone', alignRight: true },
      { title: 'p99 target' },
      { title: 'verdict' },
      { title: 'broker RSS peak MB', alignRight: true },
      { title: 'RSS target' },
      { title: 'verdict' },
      { title: 'load requests', alignRight: true },
    ];
    const table = rows.map((row) => {
      const factor = row.latency.p99Ms / alone.latency.p99Ms;
      const isAlone = row.load.startsWith('alone');
      const rssTargeted = row.load.startsWith('(b)');
      return [
        row.load,
        formatCount(row.latency.sent),
        formatRate(row.latency.p50Ms),
        formatRate(row.latency.p99Ms),
        formatRate(alone.latency.p99Ms),
        row === alone ? '(baseline)' : `${formatRate(factor)}×`,
        isAlone ? '' : `≤ ${P99_TARGET_FACTOR}× alone`,
        isAlone ? '' : factor <= P99_TARGET_FACTOR ? 'met' : 'MISSED',
        formatCount(row.rssPeakBytes / MB),
        rssTargeted ? `< ${RSS_TARGET_BYTES / MB} MB` : '',
        rssTargeted ? (row.rssPeakBytes < RSS_TARGET_BYTES ? 'met' : 'MISSED') : '',
        isAlone ? '-' : formatCount(row.loadSent),
      ];
    });
    console.log(
      `Weir under load: SDK Producer, acks=all, one ${LATENCY_VALUE_BYTES} B record per send at ${LATENCY_RATE_PER_SECOND}/s ` +
        `for ${LATENCY_SECONDS} s per row (own process); slow consumers read ${SLOW_READ.bytesPerTick / 1024} KiB per ` +
        `${SLOW_READ.tickMs} ms of a ${SLOW_PARTITION_BYTES / MB} MiB partition; broker in a child process; ${os.cpus().length} CPUs`,
    );
    console.log(formatTable(columns, table));
  } finally {
    await broker?.stop(30_000);
    await rm(dataDir, { recursive: true, force: true });
  }
}

runBenchMain(main, { name: 'load', timeoutMs: RUN_TIMEOUT_MS, killing: 'the broker' });
