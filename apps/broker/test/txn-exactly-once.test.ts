import { Admin, Client, Consumer, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineChild } from './fixtures/line-child';
import { seededRandom } from './fixtures/seeded-random';

const PROCESSOR = new URL('./fixtures/txn-processor-child.ts', import.meta.url);
const KILLS = 20;
const INPUT_RECORDS = 4000;
const PARTITIONS = 3;
/** Records per transaction: small, so every run has many transactions to be killed in. */
const CHUNK = 10;
/** Where a processor is killed: right after one of its progress lines (see the child). */
const KILL_POINTS = ['began', 'sent', 'offsets', 'committed'] as const;
const SEED = Number(process.env.WEIR_TXN_SEED ?? Date.now() % 0x7fffffff);

/**
 * Exactly-once consume-process-produce: a processor in a child process is SIGKILLed at random
 * points, over and over, and restarted with the same transactional id each time. Whatever was
 * killed mid-transaction is aborted by the successor's initTransactions, together with the input
 * positions it staged, so the output holds every input exactly once for read_committed readers.
 */
describe(`exactly once through ${KILLS} SIGKILLs of the processor (seed ${SEED})`, () => {
  let broker: RunningBroker;
  let client: Client;
  let admin: Admin;

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      // The processor's short session (see the child) must be allowed.
      groups: { initialRebalanceDelayMs: 0, offsetsTopicPartitions: 2, minSessionTimeoutMs: 100 },
      transactions: { stateTopicPartitions: 2 },
    });
    client = new Client({ bootstrapServers: [broker.bootstrap], clientId: 'exactly-once-test' });
    admin = new Admin(client);
    await admin.createTopics([
      { name: 'input', partitions: PARTITIONS },
      { name: 'output', partitions: PARTITIONS },
    ]);
    const producer = new Producer(client);
    await producer.send({
      topic: 'input',
      messages: Array.from({ length: INPUT_RECORDS }, (_, index) => ({
        key: `k${index}`,
        value: `id-${index}`,
      })),
    });
    await producer.close();
  });
  afterAll(async () => {
    // Processors a failed or timed-out run left would hold connections the broker's stop drains.
    await LineChild.killAll();
    await client?.close();
    await broker?.dispose();
  });

  const startProcessor = () =>
    new LineChild(PROCESSOR, [broker.bootstrap, 'processor', 'processors', 'input', 'output', String(CHUNK)]);

  it('leaves every input in the output exactly once', async () => {
    const random = seededRandom(SEED);
    const inputEnds = await admin.topicOffsets('input');
    const children: LineChild[] = [];
    try {
      for (let run = 0; run < KILLS; run++) {
        const processor = startProcessor();
        children.push(processor);
        const point = KILL_POINTS[Math.floor(random() * KILL_POINTS.length)]!;
        const nth = 1 + Math.floor(random() * 3);
        await processor.waitFor((line) => line.startsWith(point), `its ${nth}. "${point}" (run ${run})`, nth);
        await processor.kill();
      }

      // The last run goes on until its commits cover the whole input.
      const last = startProcessor();
      children.push(last);
      const committed = new Map<number, bigint>();
      const covered = () =>
        inputEnds.every(({ partition, latest }) => (committed.get(partition) ?? 0n) >= latest);
      await last.waitFor(
        (line) => {
          if (!line.startsWith('committed ')) return false;
          for (const pair of line.slice('committed '.length).split(',')) {
            const [partition, offset] = pair.split(':');
            committed.set(Number(partition), BigInt(offset!));
          }
          return covered();
        },
        'commits covering the whole input',
        1,
        60_000,
      );
      await last.kill();
    } finally {
      for (const child of children) await child.kill();
    }

    const groupOffsets = await admin.fetchOffsets('processors');
    expect(groupOffsets.map(({ partition, offset }) => [partition, offset])).toEqual(
      inputEnds.map(({ partition, latest }) => [partition, latest]),
    );
    const committedOutput = await readOutput('read_committed');
    const counts = new Map<string, number>();
    for (const value of committedOutput) counts.set(value, (counts.get(value) ?? 0) + 1);
    const wrong = [...counts].filter(([, count]) => count !== 1);
    expect(wrong, `ids seen more than once (seed ${SEED})`).toEqual([]);
    expect(counts.size, `distinct ids in the output (seed ${SEED})`).toBe(INPUT_RECORDS);
    // The kills did land inside transactions: their records are in the log, aborted.
    expect((await readOutput('read_uncommitted')).length).toBeGreaterThan(INPUT_RECORDS);
  }, 150_000);

  /** Every value of `output`, read from the start to the high watermark. */
  async function readOutput(isolationLevel: 'read_committed' | 'read_uncommitted'): Promise<string[]> {
    const ends = await admin.topicOffsets('output');
    const consumer = new Consumer(client, { isolationLevel, maxWaitMs: 100 });
    const values: string[] = [];
    try {
      consumer.assign(
        ends.map(({ partition }) => ({ topic: 'output', partition, offset: 'earliest' as const })),
      );
      const deadlineMs = Date.now() + 30_000;
      // Positions pass aborted records and markers too: at the ends nothing is left to arrive.
      while (
        !ends.every(({ partition, latest }) => (consumer.position('output', partition) ?? -1n) >= latest)
      ) {
        if (Date.now() > deadlineMs) throw new Error('output was not read to its end');
        for (const record of await consumer.poll()) values.push(record.value!.toString());
      }
    } finally {
      await consumer.close();
    }
    return values;
  }
});
