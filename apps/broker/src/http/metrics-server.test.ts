import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from './listen';
import { createBrokerMetrics } from './metrics';
import { startMetricsServer } from './metrics-server';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** Runs `promtool check metrics` on the text; promtool comes from the Debian package `prometheus`. */
function promtoolCheckMetrics(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              'promtool is not installed: run `bash scripts/ensure-system-deps.sh` as root (it installs the Debian package prometheus)',
            )
          : error,
      );
    });
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/** A registry with every broker metric given a value, so promtool sees each kind of series. */
function populatedMetrics() {
  const metrics = createBrokerMetrics();
  metrics.requestsTotal.inc({ api: 'Fetch', version: 12 });
  metrics.requestDurationSeconds.observe({ api: 'Fetch' }, 0.25);
  metrics.requestErrorsTotal.inc({ api: 'Fetch', error: 'OFFSET_OUT_OF_RANGE' });
  metrics.bytesInTotal.inc({ topic: 'orders' }, 10);
  metrics.bytesOutTotal.inc({ topic: 'orders' }, 10);
  metrics.recordsInTotal.inc({ topic: 'orders' });
  metrics.recordsOutTotal.inc({ topic: 'orders' });
  metrics.connections.set(3);
  metrics.connectionsRejectedTotal.inc({ reason: 'max_connections' });
  metrics.storageErrorsTotal.inc();
  metrics.registerPartitionCollector(() => [
    {
      topic: 'orders',
      partition: 0,
      logStartOffset: 0n,
      logEndOffset: 42n,
      highWatermark: 40n,
      sizeBytes: 8192,
    },
  ]);
  metrics.registerGroupCollector(() => ({
    rebalancesTotal: 4,
    groups: [
      {
        groupId: 'billing',
        state: 'Stable',
        members: 2,
        partitions: [{ topic: 'orders', partition: 0, lag: 7 }],
      },
    ],
  }));
  metrics.registerLogCleanerCollector(() => [
    {
      topic: 'prices',
      partition: 0,
      dirtyRatio: 0.25,
      lastCleanedAtMs: 1_700_000_000_000,
      removedBytesTotal: 4096,
      failed: false,
    },
  ]);
  return metrics;
}

describe('metrics server', () => {
  it('serves /metrics with the registry content type, and the output passes promtool', async () => {
    const metrics = populatedMetrics();
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0, registry: metrics.registry });
    running.push(server);
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(metrics.registry.contentType);
    expect(text).toContain('weir_partition_high_watermark{topic="orders",partition="0"} 40');
    expect(text).toContain('weir_group_partition_lag{group="billing",topic="orders",partition="0"} 7');
    expect(text).toContain('weir_group_members{group="billing"} 2');
    expect(text).toContain('weir_group_state{group="billing",state="Stable"} 1');
    expect(text).toContain('weir_group_rebalances_total 4');
    expect(text).toContain('weir_requests_total{api="Fetch",version="12"} 1');
    expect(text).toContain('weir_log_cleaner_bytes_removed_total{topic="prices",partition="0"} 4096');
    expect(text).toContain('weir_log_cleaner_max_dirty_percent 25');

    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });

  it('lets promtool fail on badly named metrics, so the check above is meaningful', async () => {
    const check = await promtoolCheckMetrics(
      '# HELP weir_bytes x\n# TYPE weir_bytes counter\nweir_bytes 1\n',
    );
    expect(check.code).not.toBe(0);
    expect(check.output).toContain('_total');
  });

  it('answers 404 for other paths', async () => {
    const server = await startMetricsServer({ port: 0, registry: createBrokerMetrics().registry });
    running.push(server);
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
