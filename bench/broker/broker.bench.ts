import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { measureFloorRow, measureNats, measureRedis } from './baseline-scenarios';
import { RUN_TIMEOUT_MS, SECTIONS } from './bench-config';
import { BenchReport } from './bench-report';
import { attachTargets } from './bench-targets';
import { killLiveServers } from './external-server';
import { measureKcatCompression } from './kcat-compression';
import { printResults } from './results-table';
import { killLiveChildren } from './run-child';
import { measureKafkajs, measureKcat, measureSdk } from './weir-scenarios';

/**
 * Broker benchmark (issue 4, "Benchmark"): Weir over the Kafka protocol with our SDK, kafkajs and
 * kcat, next to NATS JetStream, Redis Streams and the floor (one Node process appending 64 KiB
 * writevs with an fdatasync every 100 ms), all started, measured and stopped by this script on
 * 127.0.0.1 under a temporary directory that is removed at the end. Every client and every server
 * runs in its own process, so client and server CPU are reported apart.
 *
 * Environment knobs, for a quicker run (see bench-config.ts): BROKER_BENCH_SCALE,
 * BROKER_BENCH_ROUNDS, BROKER_BENCH_LATENCY_SECONDS, BROKER_BENCH_MAX_SECONDS and
 * BROKER_BENCH_ONLY (comma list of sections: sdk, kafkajs, kcat, nats, redis, floor).
 */

async function main(root: string, report: BenchReport): Promise<void> {
  if (SECTIONS.has('floor')) await measureFloorRow(root, report);
  if (SECTIONS.has('sdk')) await measureSdk(root, report);
  if (SECTIONS.has('kafkajs')) await measureKafkajs(root, report);
  if (SECTIONS.has('kcat')) {
    await measureKcat(root, report);
    await measureKcatCompression(root, report);
  }
  if (SECTIONS.has('nats')) await measureNats(root, report);
  if (SECTIONS.has('redis')) await measureRedis(root, report);
  attachTargets(report);
}

const startedMs = Date.now();
// Other work on a shared machine skews every row; the load averages tell the reader whether it did.
const loadAtStart = os.loadavg()[0]!;
const root = await mkdtemp(join(os.tmpdir(), 'weir-broker-bench-'));
const report = new BenchReport();
const abort = (reason: string): never => {
  killLiveChildren();
  killLiveServers();
  rmSync(root, { recursive: true, force: true });
  process.stderr.write(`[bench:broker] aborted: ${reason}\n`);
  process.exit(2);
};
setTimeout(() => abort(`still running after ${RUN_TIMEOUT_MS / 60_000} min`), RUN_TIMEOUT_MS).unref();
process.on('SIGINT', () => abort('interrupted'));
process.on('SIGTERM', () => abort('terminated'));

try {
  await main(root, report);
} catch (error) {
  killLiveChildren();
  killLiveServers();
  throw error;
} finally {
  await rm(root, { recursive: true, force: true });
}

printResults(report, { startedMs, loadAtStart });
