import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerPartitionGauges } from './partition-metrics';

describe('partition gauges', () => {
  it('report the gap between the high watermark and the last stable offset', async () => {
    const registry = new Registry();
    const setCollector = registerPartitionGauges(registry, (error) => {
      throw error;
    });
    setCollector(() => [
      // An open transaction from offset 6 holds read_committed consumers 4 offsets back.
      {
        topic: 'orders',
        partition: 0,
        logStartOffset: 0,
        logEndOffset: 10,
        highWatermark: 10,
        lastStableOffset: 6,
        sizeBytes: 1,
      },
      // A collector that says nothing of transactions: no gap.
      { topic: 'orders', partition: 1, logStartOffset: 0, logEndOffset: 3, highWatermark: 3, sizeBytes: 1 },
    ]);
    const text = await registry.metrics();
    expect(text).toContain('weir_partition_lso_gap{topic="orders",partition="0"} 4');
    expect(text).toContain('weir_partition_lso_gap{topic="orders",partition="1"} 0');
    expect(text).toContain('weir_partition_high_watermark{topic="orders",partition="0"} 10');
  });
});
