import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient } from './raw-client';
import { storedCodecs } from './stored-batches';

const run = promisify(execFile);

/** Debian's interpreter, which python3-kafka is installed for (scripts/ensure-system-deps.sh). */
const DEBIAN_PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./clients/kafka_python_legacy.py', import.meta.url));

interface KafkaPythonRun {
  apiVersion: number[];
  offsets: number[];
  endOffset: number | null;
  consumed: { offset: number; key: string; value: string; timestamp: number }[];
}

/**
 * Issue 20 item 2, judged by Debian's kafka-python 2.0.2: its version probe identifies the broker
 * as one that speaks RecordBatch v2, and pinned to Kafka 0.10.0 (Produce and Fetch v2, magic 1
 * messages) or 0.9 (v1, magic 0) it produces and consumes through the broker's conversions, every
 * record at the offset it was acknowledged with, stored with the producer's codec.
 */
describe('kafka-python against the legacy and current protocol', () => {
  let broker: RunningBroker;
  let raw: RawClient;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: true, defaultPartitions: 1 } });
    raw = await RawClient.connect(broker.bootstrap);
  });
  afterAll(async () => {
    await raw?.close();
    await broker?.dispose();
  });

  async function kafkaPython(
    topic: string,
    apiVersion: string,
    codec: string,
    count: number,
  ): Promise<KafkaPythonRun> {
    const { stdout } = await run(
      DEBIAN_PYTHON,
      [SCRIPT, broker.bootstrap, topic, apiVersion, codec, String(count)],
      {
        timeout: 60_000,
      },
    );
    return JSON.parse(stdout) as KafkaPythonRun;
  }

  function expectRoundTrip(result: KafkaPythonRun, count: number): void {
    expect(result.offsets).toEqual(Array.from({ length: count }, (_, index) => index));
    expect(result.consumed.map(({ offset, key, value }) => ({ offset, key, value }))).toEqual(
      Array.from({ length: count }, (_, index) => ({
        offset: index,
        key: `key-${index % 5}`,
        value: `value ${index} ${'q'.repeat(index % 30)}`,
      })),
    );
  }

  it('identifies the broker by its version probe and uses RecordBatch v2', async () => {
    const result = await kafkaPython('kafka-python-probe', 'probe', 'gzip', 40);
    // kafka-python infers a broker version from the ranges it is offered; anything from 0.11 on
    // means magic 2 batches, and Weir's ranges match its row for Kafka 2.4.
    expect(result.apiVersion).toEqual([2, 4, 0]);
    expectRoundTrip(result, 40);
    expect(result.endOffset).toBe(40);
    expect(new Set(await storedCodecs(raw, 'kafka-python-probe', 0))).toEqual(new Set(['gzip']));
  });

  it.each([
    ['0.10.0', 'none'],
    ['0.10.0', 'gzip'],
    ['0.9', 'none'],
    ['0.9', 'gzip'],
  ])('pinned to Kafka %s, produces and consumes %s records at their offsets', async (apiVersion, codec) => {
    const topic = `kafka-python-${apiVersion.replaceAll('.', '-')}-${codec}`;
    const result = await kafkaPython(topic, apiVersion, codec, 60);
    expect(result.apiVersion.join('.')).toBe(apiVersion);
    expectRoundTrip(result, 60);
    // Magic 1 carries the producer's timestamps; magic 0 has none (-1, Kafka's NO_TIMESTAMP).
    const timestamps = new Set(result.consumed.map((record) => record.timestamp > 0));
    expect(timestamps).toEqual(new Set([apiVersion === '0.10.0']));
    expect(new Set(await storedCodecs(raw, topic, 0))).toEqual(new Set([codec]));
  });
});
