import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { GIB } from '../log/units';
import {
  CHILD_TIMEOUT_MS,
  MAX_SECONDS,
  SERVER_START_TIMEOUT_MS,
  SERVER_STOP_TIMEOUT_MS,
  SIZES,
  warmupCount,
} from './bench-config';
import { type BenchReport, cappedNote, progress } from './bench-report';
import { type ExternalServer, freePort, startExternalServer } from './external-server';
import { measureClient, prefault } from './measure-client';
import { runChild } from './run-child';

// The baselines Weir is compared with on the same workload: NATS JetStream and Redis Streams, whose
// best publish and consume rates are the references of the SDK's targets, and the floor (one Node
// process appending 64 KiB writevs with an fdatasync every 100 ms), the reference for the 1 KiB
// produce rate.

async function withServer(
  start: () => Promise<ExternalServer>,
  use: (server: ExternalServer) => Promise<void>,
): Promise<void> {
  const server = await start();
  try {
    await use(server);
  } finally {
    await server.stop(SERVER_STOP_TIMEOUT_MS);
  }
}

export async function measureNats(root: string, report: BenchReport): Promise<void> {
  const system = 'NATS JetStream';
  const directory = join(root, 'nats');
  await mkdir(directory, { recursive: true });
  const port = await freePort();
  await withServer(
    () =>
      startExternalServer(
        'nats-server',
        ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', directory],
        port,
        SERVER_START_TIMEOUT_MS,
      ),
    async (server) => {
      for (const size of SIZES) {
        const stream = `BENCH_${size.key.toUpperCase()}`;
        let published: number | undefined;
        const workload = `publish ${size.label}`;
        await report.attempt(system, workload, async () => {
          await prefault(root, size);
          progress(`NATS ${workload}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'nats-publish',
              {
                port,
                stream,
                count: size.count,
                valueBytes: size.valueBytes,
                warmupCount: warmupCount(size),
                publishesInFlight: 1024,
                maxSeconds: MAX_SECONDS,
              },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          published = run.records;
          report.noteBaseline('publish', size, system, run);
          return { system, workload, run, note: cappedNote(run, size) };
        });
        if (published === undefined) continue;
        const count = published;
        await report.attempt(system, `consume ${size.label}`, async () => {
          progress(`NATS consume ${size.label}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild('nats-consume', { port, stream, count }, { timeoutMs: CHILD_TIMEOUT_MS, onMark }),
          );
          report.noteBaseline('consume', size, system, run);
          return { system, workload: `consume ${size.label}`, run };
        });
      }
    },
  );
  await rm(directory, { recursive: true, force: true });
}

export async function measureRedis(root: string, report: BenchReport): Promise<void> {
  const system = 'Redis Streams';
  const directory = join(root, 'redis');
  await mkdir(directory, { recursive: true });
  const port = await freePort();
  await withServer(
    () =>
      startExternalServer(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          directory,
          '--appendonly',
          'yes',
          '--appendfsync',
          'everysec',
          '--save',
          '',
          '--daemonize',
          'no',
          '--logfile',
          '',
        ],
        port,
        SERVER_START_TIMEOUT_MS,
      ),
    async (server) => {
      for (const size of SIZES) {
        const stream = `bench-${size.key}`;
        let added: number | undefined;
        const workload = `pipelined XADD ${size.label}`;
        await report.attempt(system, workload, async () => {
          await prefault(root, size);
          progress(`Redis ${workload}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'redis-add',
              {
                port,
                stream,
                count: size.count,
                valueBytes: size.valueBytes,
                warmupCount: warmupCount(size),
                commandsPerPipeline: 1000,
                pipelinesInFlight: 4,
                maxSeconds: MAX_SECONDS,
              },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          added = run.records;
          report.noteBaseline('publish', size, system, run);
          return { system, workload, run, note: cappedNote(run, size) };
        });
        if (added === undefined) continue;
        const count = added;
        await report.attempt(system, `XREAD ${size.label}`, async () => {
          progress(`Redis XREAD ${size.label}`);
          const run = await measureClient(server.pid, (onMark) =>
            runChild(
              'redis-read',
              { port, stream, count, recordsPerRead: 5000 },
              { timeoutMs: CHILD_TIMEOUT_MS, onMark },
            ),
          );
          report.noteBaseline('consume', size, system, run);
          return { system, workload: `XREAD ${size.label}`, run };
        });
      }
    },
  );
  await rm(directory, { recursive: true, force: true });
}

export async function measureFloorRow(root: string, report: BenchReport): Promise<void> {
  const workload = 'writev 64 KiB + fdatasync/100 ms';
  await report.attempt('floor (one Node process)', workload, async () => {
    progress(`floor: ${workload}`);
    const floor = await runChild(
      'floor',
      { path: join(root, 'floor.log'), warmupMs: 300, durationMs: 4000, maxBytes: GIB },
      { timeoutMs: CHILD_TIMEOUT_MS },
    );
    report.floorBytesPerSecond = floor.bytesPerSecond;
    const seconds = floor.bytes / floor.bytesPerSecond;
    return {
      system: 'floor (one Node process)',
      workload,
      run: {
        records: floor.bytes / (64 * 1024),
        payloadBytes: floor.bytes,
        seconds,
        clientCpuMs: Number.NaN,
        serverCpuMs: undefined,
        serverSeconds: undefined,
      },
      note: 'records = 64 KiB writes',
    };
  });
}
