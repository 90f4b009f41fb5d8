import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kcat } from './kcat-clients';

describe('kcat (librdkafka 2.0) against Weir', () => {
  let broker: RunningBroker;
  let scratch: string;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: true, defaultPartitions: 3 } });
    scratch = await mkdtemp(join(tmpdir(), 'weir-kcat-'));
  });
  afterAll(async () => {
    await broker.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it('lists brokers and topics with -L', async () => {
    await kcat(broker, ['-P', '-t', 'listed'], 'one\n');
    const listing = await kcat(broker, ['-L']);
    expect(listing).toContain(`broker 0 at 127.0.0.1:${broker.port}`);
    expect(listing).toMatch(/topic "listed" with 3 partitions/);
  });

  it('produces keyed lines from a file and consumes them all back in order per partition', async () => {
    const lines = Array.from({ length: 300 }, (_, index) => `key-${index % 7}:value-${index}`);
    const file = join(scratch, 'keyed.txt');
    await writeFile(file, `${lines.join('\n')}\n`);
    await kcat(broker, ['-P', '-t', 'keyed', '-K', ':', '-l', file]);
    const consumed = await kcat(broker, ['-C', '-t', 'keyed', '-o', 'beginning', '-e', '-f', '%p %k %s\n']);
    const records = consumed
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(records).toHaveLength(300);
    expect(new Set(records.map(([, , value]) => value))).toEqual(
      new Set(lines.map((line) => line.split(':')[1])),
    );
    // Within each partition, values come back in the order they were produced.
    const byPartition = new Map<string, number[]>();
    for (const [partition, key, value] of records) {
      const index = Number(value!.split('-')[1]);
      expect(key).toBe(`key-${index % 7}`);
      byPartition.set(partition!, [...(byPartition.get(partition!) ?? []), index]);
    }
    for (const indexes of byPartition.values()) expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  });

  it.each(['gzip', 'snappy', 'lz4', 'zstd'])('round-trips records compressed with %s', async (codec) => {
    const topic = `codec-${codec}`;
    const input = Array.from({ length: 100 }, (_, index) => `${codec}-${index}-${'x'.repeat(index)}`);
    await kcat(broker, ['-P', '-t', topic, '-p', '0', '-z', codec], `${input.join('\n')}\n`);
    const consumed = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e']);
    expect(consumed.trim().split('\n')).toEqual(input);
  });

  it('produces with an idempotent producer', async () => {
    const input = Array.from({ length: 50 }, (_, index) => `idem-${index}`);
    await kcat(
      broker,
      ['-P', '-t', 'idempotent', '-p', '1', '-X', 'enable.idempotence=true'],
      `${input.join('\n')}\n`,
    );
    const consumed = await kcat(broker, ['-C', '-t', 'idempotent', '-p', '1', '-o', 'beginning', '-e']);
    expect(consumed.trim().split('\n')).toEqual(input);
  });

  it('reads from an offset, from the end and by timestamp', async () => {
    const topic = 'offsets';
    await kcat(
      broker,
      ['-P', '-t', topic, '-p', '0'],
      `${Array.from({ length: 20 }, (_, i) => `m${i}`).join('\n')}\n`,
    );
    const fromOffset = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', '15', '-e']);
    expect(fromOffset.trim().split('\n')).toEqual(['m15', 'm16', 'm17', 'm18', 'm19']);
    const tail = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', '-3', '-e']);
    expect(tail.trim().split('\n')).toEqual(['m17', 'm18', 'm19']);
    const byTime = await kcat(broker, ['-Q', '-t', `${topic}:0:${Date.now() + 60_000}`]);
    expect(byTime).toMatch(/offset -1/);
    const fromStart = await kcat(broker, ['-Q', '-t', `${topic}:0:0`]);
    expect(fromStart).toMatch(/offset 0/);
  });
  it('loses nothing across a broker restart between produce and consume', async () => {
    const restarted = await startBroker({ topics: { autoCreateEnable: true, defaultPartitions: 2 } });
    try {
      const input = Array.from({ length: 500 }, (_, index) => `k${index % 9}:survivor-${index}`);
      await kcat(restarted, ['-P', '-t', 'survives', '-K', ':', '-X', 'acks=all'], `${input.join('\n')}\n`);
      await restarted.stop();
      const again = await startBroker({}, restarted.dataDir);
      try {
        const consumed = await kcat(again, [
          '-C',
          '-t',
          'survives',
          '-o',
          'beginning',
          '-e',
          '-f',
          '%k:%s\n',
        ]);
        expect(consumed.trim().split('\n').sort()).toEqual([...input].sort());
      } finally {
        await again.stop();
      }
    } finally {
      await restarted.dispose();
    }
  });
});
