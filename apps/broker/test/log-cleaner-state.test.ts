import { Admin, Client, InternalAdmin, type LogCleanerPartitionState, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/http/listen';
import { startMetricsServer } from '../src/http/metrics-server';
import { pollUntil } from './group-fixtures';

/**
 * The log cleaner's state (issue #19), where operators read it: WeirDescribeLogCleaner on the
 * internal listener and the broker's /metrics endpoint, after a real clean of a compacted topic
 * that a producer filled with superseded keys. A topic with the delete policy never appears.
 */

const COMPACTED = 'prices';
const DELETED = 'orders';

/** One sample of the Prometheus text, by its name and labels as written; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the log cleaner state', () => {
  let broker: RunningBroker;
  let metricsServer: RunningServer;
  let client: Client;
  let internalClient: Client;
  let internal: InternalAdmin;

  const scrape = async (): Promise<string> => {
    const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    // The cleaner looks again 100 ms after finding nothing due.
    broker = await startBroker({ log: { cleaner: { backoffMs: 100 } } });
    metricsServer = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      registry: broker.metrics.registry,
    });
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    internalClient = new Client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
    });
    internal = new InternalAdmin(internalClient);
    const small = { 'segment.bytes': '1024' };
    await new Admin(client).createTopics([
      {
        name: COMPACTED,
        partitions: 1,
        replicationFactor: 1,
        configs: { ...small, 'cleanup.policy': 'compact', 'min.cleanable.dirty.ratio': '0.01' },
      },
      { name: DELETED, partitions: 1, replicationFactor: 1, configs: small },
    ]);
    const producer = new Producer(client);
    // 300 values of 6 keys in batches of 6: each closed segment is superseded by the next.
    for (let batch = 0; batch < 50; batch++) {
      for (const topic of [COMPACTED, DELETED]) {
        await producer.send({
          topic,
          messages: Array.from({ length: 6 }, (_, index) => ({
            key: `key-${index}`,
            value: `value-${batch * 6 + index}`,
          })),
        });
      }
    }
    await producer.close();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await internalClient?.close();
    await metricsServer?.close();
    await broker?.dispose();
  });

  /**
   * The partition once cleaned and then judged again with nothing left due: nothing is appended
   * any more, so its numbers no longer change.
   */
  const settled = (): Promise<LogCleanerPartitionState> =>
    pollUntil(async () => {
      const [state] = await internal.describeLogCleaner([COMPACTED]);
      return state !== undefined && state.removedBytesTotal > 0n && state.lastOutcome === 'not-due'
        ? state
        : undefined;
    }, `the cleaner to clean ${COMPACTED}-0 and find nothing more due`);

  it('describes the compacted partition: ratio, last clean, bytes removed and the next clean', async () => {
    const state = await settled();
    const brokerId = broker.broker.services.cluster.localBrokerId;
    expect(state).toMatchObject({
      brokerId,
      topic: COMPACTED,
      partition: 0,
      leader: true,
      minCleanableDirtyRatio: 0.01,
      lastError: null,
      // Nothing is appended: the only dirty records are in the active segment, which waits.
      nextCleanDue: { kind: 'dirty-ratio', latestAtMs: null },
    });
    expect(state.dirtyRatio).toBeLessThan(0.01);
    expect(state.cleanedUpToOffset).toBeGreaterThan(0n);
    expect(state.lastCleanedAtMs).not.toBeNull();
    expect(state.lastCleanRemovedBytes).toBeGreaterThan(0n);
    expect(state.lastCleanRemovedBytes!).toBeLessThanOrEqual(state.removedBytesTotal);
    // What was appended, less what the log holds now, is what the cleans removed.
    const appended = sample(await scrape(), `weir_topic_in_bytes_total{topic="${COMPACTED}"}`);
    const stats = broker.broker.partitionStats().find((row) => row.topic === COMPACTED)!;
    expect(state.removedBytesTotal).toBe(BigInt(appended! - stats.sizeBytes));

    // Every topic: only the compacted one (and the compacted internal topics, if the cleaner has
    // looked at them).
    const all = await internal.describeLogCleaner();
    expect(all.map((row) => row.topic)).toContain(COMPACTED);
    expect(all.map((row) => row.topic)).not.toContain(DELETED);
    expect(await internal.describeLogCleaner([DELETED])).toEqual([]);
    await expect(internal.describeLogCleaner(['no-such-topic'])).rejects.toMatchObject({
      message: expect.stringContaining('no-such-topic'),
    });
  });

  it('exports the same numbers on /metrics, per partition and for the broker', async () => {
    const state = await settled();
    const text = await scrape();
    const labels = `{topic="${COMPACTED}",partition="0"}`;
    expect(sample(text, `weir_log_cleaner_bytes_removed_total${labels}`)).toBe(
      Number(state.removedBytesTotal),
    );
    expect(sample(text, `weir_log_cleaner_dirty_ratio${labels}`)).toBe(state.dirtyRatio);
    expect(sample(text, `weir_log_cleaner_last_clean_timestamp_seconds${labels}`)).toBe(
      state.lastCleanedAtMs! / 1000,
    );
    expect(sample(text, 'weir_log_cleaner_max_dirty_percent')).toBeGreaterThanOrEqual(state.dirtyRatio * 100);
    expect(sample(text, 'weir_log_cleaner_uncleanable_partitions')).toBe(0);
    expect(text).not.toContain(`weir_log_cleaner_dirty_ratio{topic="${DELETED}"`);
  });

  it('drops a topic that stops compacting, from the API and the metrics', async () => {
    await settled();
    await new Admin(client).incrementalAlterConfigs([
      {
        type: 'topic',
        name: COMPACTED,
        changes: [{ name: 'cleanup.policy', operation: 'set', value: 'delete' }],
      },
    ]);
    await pollUntil(
      async () => (await internal.describeLogCleaner([COMPACTED])).length === 0,
      `${COMPACTED} to leave the cleaner's state`,
    );
    expect(await scrape()).not.toContain(`weir_log_cleaner_dirty_ratio{topic="${COMPACTED}"`);
  });
});
