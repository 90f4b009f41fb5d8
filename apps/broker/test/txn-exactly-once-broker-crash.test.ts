import { Admin, Client, Consumer, TransactionalProducer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineChild } from './fixtures/line-child';
import { seededRandom } from './fixtures/seeded-random';
import { temporaryDirectory } from './log-fixtures';

const BROKER = new URL('./fixtures/txn-broker-child.ts', import.meta.url);
const KILLS = 15;
/** Every transaction writes one record to each of these partitions. */
const PARTITIONS = [
  { topic: 'ledger', partition: 0 },
  { topic: 'ledger', partition: 1 },
  { topic: 'ledger', partition: 2 },
  { topic: 'audit', partition: 0 },
] as const;
const TRANSACTIONAL_ID = 'ledger-writer';
const SEED = Number(process.env.WEIR_TXN_SEED ?? Date.now() % 0x7fffffff);

/** One transaction the client began: its number, and whether its commit was acknowledged. */
interface Attempt {
  readonly id: number;
  acknowledged: boolean;
  /** The broker was killed after its records were stored and before its commit was asked for. */
  killedBeforeCommit?: boolean;
}

/**
 * A broker SIGKILLed while a client commits transactions in a loop, mostly while it writes a
 * commit's markers (after PrepareCommit is durable, before CompleteCommit), sometimes before the
 * client asked to commit. After each restart every transaction must be visible to read_committed
 * readers on all its partitions or on none, and every acknowledged commit on all of them.
 */
describe(`a broker SIGKILLed during EndTxn, ${KILLS} times (seed ${SEED})`, () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    directory = await temporaryDirectory('weir-txn-crash-');
  });
  afterAll(async () => {
    // A broker child a failed or timed-out run left would write into the directory as it goes.
    await LineChild.killAll();
    await directory?.cleanup();
  });

  /** Starts the broker child on the test's data directory; resolves with it and its bootstrap. */
  async function startBrokerChild(): Promise<{ broker: LineChild; bootstrap: string }> {
    const broker = new LineChild(BROKER, [directory.path]);
    try {
      const ready = await broker.waitFor((line) => line.startsWith('ready '), 'ready');
      return { broker, bootstrap: `127.0.0.1:${ready.split(' ')[1]}` };
    } catch (error) {
      await broker.kill();
      throw error;
    }
  }

  /**
   * Commits transaction after transaction until the client is closed under it. `onSent` runs
   * once a transaction's records are stored; the commit waits for what it returns.
   */
  async function commitLoop(
    producer: TransactionalProducer,
    attempts: Attempt[],
    onSent: (attempt: Attempt) => Promise<void> | undefined,
  ) {
    for (;;) {
      const attempt: Attempt = { id: attempts.length, acknowledged: false };
      attempts.push(attempt);
      producer.beginTransaction();
      await Promise.all(
        PARTITIONS.map(({ topic, partition }) =>
          producer.send({ topic, messages: [{ value: `tx-${attempt.id}`, partition }] }),
        ),
      );
      await onSent(attempt);
      await producer.commitTransaction();
      attempt.acknowledged = true;
    }
  }

  it('leaves each transaction entirely visible or entirely invisible', async () => {
    const random = seededRandom(SEED);
    const attempts: Attempt[] = [];
    const killPoints: string[] = [];
    for (let run = 0; run <= KILLS; run++) {
      const { broker, bootstrap } = await startBrokerChild();
      // Fail fast once the broker is gone; the loop is stopped by closing the client anyway.
      const client = new Client({ bootstrapServers: [bootstrap], retry: { maxTotalMs: 2000 } });
      try {
        if (run === 0)
          await new Admin(client).createTopics([
            { name: 'ledger', partitions: 3 },
            { name: 'audit', partitions: 1 },
          ]);
        const producer = new TransactionalProducer(client, { transactionalId: TRANSACTIONAL_ID });
        // Aborts what the last run left open (its commit was never asked for, or never decided).
        await producer.initTransactions();
        if (run === KILLS) {
          await producer.close();
          const counts = await visibleCounts(client);
          const partial = [...counts].filter(([, count]) => count !== PARTITIONS.length);
          expect(partial, `transactions on only some partitions: [id, partitions] (seed ${SEED})`).toEqual(
            [],
          );
          const lost = attempts.filter(({ id, acknowledged }) => acknowledged && !counts.has(id));
          expect(lost, `acknowledged commits not visible (seed ${SEED})`).toEqual([]);
          const resurrected = attempts.filter(
            ({ id, killedBeforeCommit }) => killedBeforeCommit && counts.has(id),
          );
          expect(resurrected, `visible though never committed (seed ${SEED})`).toEqual([]);
          break;
        }
        const nth = 1 + Math.floor(random() * 4);
        // Mostly while the markers of the nth commit are written; otherwise once the nth
        // transaction's records are stored, before its commit is asked for (it must abort).
        const duringMarkers = random() < 0.75;
        killPoints.push(`${duringMarkers ? 'markers' : 'sent'}#${nth}`);
        let sentCount = 0;
        let onNthSent = () => {};
        const nthSent = new Promise<void>((resolve) => {
          onNthSent = resolve;
        });
        let killed = () => {};
        const afterKill = new Promise<void>((resolve) => {
          killed = resolve;
        });
        const loop = commitLoop(producer, attempts, (attempt) => {
          if (duringMarkers || ++sentCount !== nth) return undefined;
          attempt.killedBeforeCommit = true;
          onNthSent();
          return afterKill;
        }).catch(() => {});
        if (duringMarkers) {
          await broker.waitFor((line) => line === 'markers commit', `the ${nth}. commit's markers`, nth);
          // A few event-loop turns more or less, so kills land at varying points of the write.
          for (let turns = Math.floor(random() * 4); turns > 0; turns--)
            await new Promise((resolve) => setImmediate(resolve));
        } else {
          await nthSent;
        }
        await broker.kill();
        killed();
        await client.close();
        await loop;
      } finally {
        try {
          await client.close();
        } finally {
          await broker.kill();
        }
      }
    }
    expect(attempts.filter((attempt) => attempt.acknowledged).length).toBeGreaterThan(0);
    expect(killPoints).toHaveLength(KILLS);
  }, 180_000);
});

/** How many partitions show each transaction's record to a read_committed reader. */
async function visibleCounts(client: Client): Promise<Map<number, number>> {
  const admin = new Admin(client);
  const ends = new Map<string, bigint>();
  for (const topic of ['ledger', 'audit'])
    for (const { partition, latest } of await admin.topicOffsets(topic))
      ends.set(`${topic}-${partition}`, latest);
  const consumer = new Consumer(client, { maxWaitMs: 100 });
  const counts = new Map<number, number>();
  try {
    consumer.assign(
      PARTITIONS.map(({ topic, partition }) => ({ topic, partition, offset: 'earliest' as const })),
    );
    const deadlineMs = Date.now() + 30_000;
    // Positions pass aborted records and markers too: at the ends nothing is left to arrive.
    while (
      !PARTITIONS.every(
        ({ topic, partition }) =>
          (consumer.position(topic, partition) ?? -1n) >= ends.get(`${topic}-${partition}`)!,
      )
    ) {
      if (Date.now() > deadlineMs) throw new Error('the topics were not read to their ends');
      for (const record of await consumer.poll()) {
        const id = Number(record.value!.toString().slice('tx-'.length));
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
  } finally {
    await consumer.close();
  }
  return counts;
}
