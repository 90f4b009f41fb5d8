import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sdkLatency } from '../broker/sdk-client';
import { startWeir, stopWeir } from '../broker/weir-service';
import { formatTable } from '../harness/table';

/**
 * Fairness between connections (issue #14, item 5): one SDK producer's send latency (acks=1, 1 KiB
 * records at a fixed rate, sequential sends measured from their scheduled time) alone, then beside
 * 200 connections looping ApiVersions + Metadata in another process, against one Weir broker in its
 * own process. The baseline is the same producer alone, in the same run.
 */
const LOOPERS = 200;
const RATE_PER_SECOND = 200;
const SECONDS = 8;

async function latency(bootstrap: string, topic: string) {
  return sdkLatency({
    bootstrap,
    topic,
    valueBytes: 1024,
    acks: 1,
    ratePerSecond: RATE_PER_SECOND,
    warmupSeconds: 1,
    seconds: SECONDS,
  });
}

const root = await mkdtemp(join(tmpdir(), 'weir-fairness-'));
const weir = await startWeir(root, 'weir-fairness');
try {
  const alone = await latency(weir.bootstrap, 'fairness-alone');
  const [host, port] = weir.bootstrap.split(':');
  const loopers = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'metadata-loopers.ts'), host!, port!, String(LOOPERS)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  loopers.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const loopersStartedMs = performance.now();
  const beside = await latency(weir.bootstrap, 'fairness-beside');
  const exited = new Promise((resolve) => loopers.once('exit', resolve));
  loopers.kill('SIGTERM');
  await exited;
  const loopSeconds = (performance.now() - loopersStartedMs) / 1000;
  const answers = (JSON.parse(output.trim() || '{"answers":0}') as { answers: number }).answers;
  const row = (label: string, run: Awaited<ReturnType<typeof latency>>, extra: string) => [
    label,
    run.p50Ms.toFixed(1),
    run.p99Ms.toFixed(1),
    run.maxMs.toFixed(1),
    run.achievedPerSecond.toFixed(0),
    extra,
  ];
  console.log(
    formatTable(
      [
        { title: 'producer (SDK, acks=1, 1 KiB)' },
        { title: 'p50 ms', alignRight: true },
        { title: 'p99 ms', alignRight: true },
        { title: 'max ms', alignRight: true },
        { title: 'sends/s', alignRight: true },
        { title: 'looper answers/s', alignRight: true },
      ],
      [
        row('alone (baseline)', alone, '-'),
        row(`beside ${LOOPERS} metadata loopers`, beside, (answers / loopSeconds).toFixed(0)),
      ],
    ),
  );
} finally {
  await stopWeir(root, 'weir-fairness', weir);
  await rm(root, { recursive: true, force: true });
}
