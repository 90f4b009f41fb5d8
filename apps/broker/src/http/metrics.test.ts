import { describe, expect, it } from 'vitest';
import { createBrokerMetrics } from './metrics';
import type { PartitionStats } from './partition-metrics';

function partition(topic: string, index: number, logEndOffset: number): PartitionStats {
  return {
    topic,
    partition: index,
    logStartOffset: 0,
    logEndOffset,
    highWatermark: logEndOffset - 1,
    sizeBytes: 4096,
  };
}

describe('createBrokerMetrics', () => {
  it('exposes the request, traffic, connection and storage metrics under weir_ names', async () => {
    const metrics = createBrokerMetrics();
    metrics.requestsTotal.inc({ api: 'Produce', version: 9 });
    metrics.requestsTotal.inc({ api: 'Produce', version: 9 });
    metrics.requestDurationSeconds.observe({ api: 'Fetch' }, 0.003);
    metrics.requestErrorsTotal.inc({ api: 'Produce', error: 'CORRUPT_MESSAGE' });
    metrics.bytesInTotal.inc({ topic: 'orders' }, 1500);
    metrics.bytesOutTotal.inc({ topic: 'orders' }, 700);
    metrics.recordsInTotal.inc({ topic: 'orders' }, 3);
    metrics.recordsOutTotal.inc({ topic: 'orders' }, 2);
    metrics.connections.inc();
    metrics.connectionsRejectedTotal.inc({ reason: 'max_connections' });
    metrics.storageErrorsTotal.inc();
    const text = await metrics.registry.metrics();
    expect(text).toContain('weir_requests_total{api="Produce",version="9"} 2');
    expect(text).toContain('weir_request_duration_seconds_bucket{le="0.005",api="Fetch"} 1');
    expect(text).toContain('weir_request_errors_total{api="Produce",error="CORRUPT_MESSAGE"} 1');
    expect(text).toContain('weir_topic_in_bytes_total{topic="orders"} 1500');
    expect(text).toContain('weir_topic_out_bytes_total{topic="orders"} 700');
    expect(text).toContain('weir_topic_in_records_total{topic="orders"} 3');
    expect(text).toContain('weir_topic_out_records_total{topic="orders"} 2');
    expect(text).toContain('weir_connections 1');
    expect(text).toContain('weir_connections_rejected_total{reason="max_connections"} 1');
    expect(text).toContain('weir_storage_errors_total 1');
    expect(text).toMatch(/^weir_process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^weir_nodejs_heap_size_used_bytes \d/m);
    const names = [...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]);
    expect(names.filter((name) => !name?.startsWith('weir_'))).toEqual([]);
  });

  it('collects the partition gauges at scrape time, asking the broker once per scrape', async () => {
    const metrics = createBrokerMetrics();
    let calls = 0;
    let stats = [
      partition('orders', 0, 10),
      { ...partition('orders', 1, 5), logStartOffset: 2n, sizeBytes: 0 },
    ];
    metrics.registerPartitionCollector(() => {
      calls += 1;
      return stats;
    });
    const first = await metrics.registry.metrics();
    expect(calls).toBe(1);
    expect(first).toContain('weir_partition_log_start_offset{topic="orders",partition="1"} 2');
    expect(first).toContain('weir_partition_log_end_offset{topic="orders",partition="0"} 10');
    expect(first).toContain('weir_partition_high_watermark{topic="orders",partition="0"} 9');
    expect(first).toContain('weir_partition_size_bytes{topic="orders",partition="0"} 4096');

    // A partition that disappears (its topic was deleted) must not linger in the next scrape.
    stats = [partition('payments', 0, 1)];
    const second = await metrics.registry.metrics();
    expect(calls).toBe(2);
    expect(second).not.toContain('topic="orders"');
    expect(second).toContain('weir_partition_log_end_offset{topic="payments",partition="0"} 1');
  });

  it('counts a failing partition collector and still serves the other metrics', async () => {
    const metrics = createBrokerMetrics();
    metrics.registerPartitionCollector(() => {
      throw new Error('log manager closed');
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('weir_metrics_collector_errors_total{collector="partitions"} 1');
    expect(text).not.toMatch(/^weir_partition_log_end_offset\{/m);
    expect(text).toContain('weir_storage_errors_total 0');
  });

  it('reports offline and write-degraded partitions as gauges read at scrape time', async () => {
    const metrics = createBrokerMetrics();
    expect(await metrics.registry.metrics()).toContain('weir_partitions_offline 0');
    let stats = { offline: 2, writeDegraded: 3 };
    metrics.registerStorageHealthCollector(() => stats);
    const first = await metrics.registry.metrics();
    expect(first).toContain('weir_partitions_offline 2');
    expect(first).toContain('weir_partitions_write_degraded 3');
    stats = { offline: 2, writeDegraded: 0 };
    expect(await metrics.registry.metrics()).toContain('weir_partitions_write_degraded 0');
    metrics.registerStorageHealthCollector(() => {
      throw new Error('replica manager stopped');
    });
    expect(await metrics.registry.metrics()).toContain(
      'weir_metrics_collector_errors_total{collector="storage-health"} 2',
    );
  });

  it('drops the per-topic series of a removed topic', async () => {
    const metrics = createBrokerMetrics();
    metrics.bytesInTotal.inc({ topic: 'gone' }, 1);
    metrics.recordsOutTotal.inc({ topic: 'kept' }, 1);
    metrics.removeTopic('gone');
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('topic="gone"');
    expect(text).toContain('weir_topic_out_records_total{topic="kept"} 1');
  });

  it('keeps registries independent', async () => {
    const a = createBrokerMetrics();
    const b = createBrokerMetrics();
    a.storageErrorsTotal.inc(5);
    expect(await b.registry.metrics()).toContain('weir_storage_errors_total 0');
  });
});
