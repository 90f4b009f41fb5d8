import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ReadinessCheck } from '../http/health-server';
import type { PartitionStats } from '../http/partition-metrics';
import type { BrokerFactory, BrokerHandle } from './broker-factory';
import { brokerStartCommand } from './broker-start-command';
import type { CliDeps } from './cli-deps';

interface LogLine {
  msg: string;
  [field: string]: unknown;
}

/** Collects JSON log lines and lets a test wait for a given message instead of sleeping. */
function logCapture() {
  const lines: LogLine[] = [];
  const waiters: { msg: string; resolve: (line: LogLine) => void }[] = [];
  let pending = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = JSON.parse(pending.slice(0, newline)) as LogLine;
        pending = pending.slice(newline + 1);
        lines.push(line);
        for (const waiter of waiters.filter((w) => w.msg === line.msg)) waiter.resolve(line);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
  const waitFor = (msg: string): Promise<LogLine> => {
    const seen = lines.find((line) => line.msg === msg);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ msg, resolve }));
  };
  return { stream, lines, waitFor };
}

function textCapture() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A broker whose start and stop finish when the test says so. */
class FakeBroker implements BrokerHandle {
  readonly started = deferred();
  readonly stopped = deferred();
  readonly stopRequested = deferred();
  stopCalls = 0;
  private running = false;
  async start(): Promise<void> {
    await this.started.promise;
    this.running = true;
  }
  async stop(): Promise<void> {
    this.stopCalls += 1;
    // Like the real broker, it stops reporting ready as soon as it starts draining.
    this.running = false;
    this.stopRequested.resolve();
    await this.stopped.promise;
  }
  readiness(): ReadinessCheck[] {
    return [{ name: 'storage', ok: this.running, detail: this.running ? undefined : 'recovering' }];
  }
  groupStats() {
    return {
      rebalancesTotal: 2,
      groups: [
        {
          groupId: 'billing',
          state: 'Stable',
          members: 2,
          partitions: [{ topic: 'orders', partition: 0, lag: 3 }],
        },
      ],
    };
  }
  partitionStats(): PartitionStats[] {
    return [
      { topic: 'orders', partition: 0, logStartOffset: 0, logEndOffset: 3, highWatermark: 3, sizeBytes: 210 },
    ];
  }
}

const EPHEMERAL_PORTS = ['health.port=0', 'metrics.port=0', 'logging.pretty=false'];

function setup(broker: FakeBroker, extraSet: string[] = []) {
  const log = logCapture();
  const stderr = textCapture();
  const signal = deferred<string>();
  const factoryCalls: unknown[] = [];
  const createBroker: BrokerFactory = (config, deps) => {
    factoryCalls.push({ config, deps });
    return broker;
  };
  const deps: CliDeps = {
    env: {},
    stdout: log.stream,
    stderr: stderr.stream,
    createBroker,
    shutdownSignal: () => signal.promise,
  };
  const exitCode = brokerStartCommand({ set: [...EPHEMERAL_PORTS, ...extraSet] }, deps);
  return { log, stderr, signal, exitCode, factoryCalls };
}

describe('broker start', () => {
  it('serves health and metrics from before start to the end of stop, and exits 0', async () => {
    const broker = new FakeBroker();
    const { log, signal, exitCode } = setup(broker);
    const serving = await log.waitFor('health and metrics serving');
    const health = `http://127.0.0.1:${serving.healthPort}`;
    const metrics = `http://127.0.0.1:${serving.metricsPort}`;

    expect((await fetch(`${health}/live`)).status).toBe(200);
    const recovering = await fetch(`${health}/ready`);
    expect(recovering.status).toBe(503);
    expect(await recovering.json()).toMatchObject({
      checks: [{ name: 'storage', ok: false, detail: 'recovering' }],
    });

    broker.started.resolve();
    await log.waitFor('startup complete');
    expect((await fetch(`${health}/ready`)).status).toBe(200);
    expect(await (await fetch(`${metrics}/metrics`)).text()).toContain(
      'weir_partition_log_end_offset{topic="orders",partition="0"} 3',
    );
    expect(await (await fetch(`${metrics}/metrics`)).text()).toContain(
      'weir_group_partition_lag{group="billing",topic="orders",partition="0"} 3',
    );

    signal.resolve('SIGTERM');
    await broker.stopRequested.promise;
    // While the broker drains, the probes are still up and say it is not ready.
    expect((await fetch(`${health}/ready`)).status).toBe(503);
    broker.stopped.resolve();
    expect(await exitCode).toBe(0);
    await expect(fetch(`${health}/live`)).rejects.toThrow();
    await expect(fetch(`${metrics}/metrics`)).rejects.toThrow();
  });

  it('exits 1 when the stop outlives shutdownTimeoutMs', async () => {
    const broker = new FakeBroker();
    const { log, signal, exitCode } = setup(broker, ['shutdownTimeoutMs=20']);
    broker.started.resolve();
    await log.waitFor('startup complete');
    signal.resolve('SIGINT');
    expect(await exitCode).toBe(1);
    expect(log.lines.map((line) => line.msg)).toContain('shutdown took too long; exiting anyway');
  });

  it('stops after the start completes when the signal comes during start', async () => {
    const broker = new FakeBroker();
    const { log, signal, exitCode } = setup(broker);
    await log.waitFor('health and metrics serving');
    signal.resolve('SIGTERM');
    await log.waitFor('shutting down');
    expect(broker.stopCalls).toBe(0);
    broker.started.resolve();
    broker.stopped.resolve();
    expect(await exitCode).toBe(0);
    expect(broker.stopCalls).toBe(1);
  });

  it('exits 1 and closes the servers when the broker fails to start', async () => {
    const broker = new FakeBroker();
    const { log, exitCode } = setup(broker);
    const serving = await log.waitFor('health and metrics serving');
    broker.started.reject(new Error('data dir is locked'));
    broker.stopped.resolve();
    expect(await exitCode).toBe(1);
    const fatal = log.lines.find((line) => line.msg === 'the broker failed to start');
    expect(fatal).toMatchObject({ level: 'fatal', err: { message: 'data dir is locked' } });
    await expect(fetch(`http://127.0.0.1:${serving.healthPort}/live`)).rejects.toThrow();
  });

  it('exits 2 without building the broker when the configuration is invalid', async () => {
    const broker = new FakeBroker();
    const { stderr, exitCode, factoryCalls } = setup(broker, ['limits.maxConnections=0']);
    expect(await exitCode).toBe(2);
    expect(stderr.text()).toMatch(/^limits\.maxConnections: .*>=1.* \(from flag\)$/m);
    expect(factoryCalls).toEqual([]);
  });
});
