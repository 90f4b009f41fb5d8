import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Admin, Client, ListOffsets } from '@weir/protocol';
import type { Kafka } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partitionForKey } from '../../src/coordination/partition-for-key';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster, ClusterBroker } from './broker-cluster';
import { kafkaOf, kcatReadAll, storedAssignment } from './cluster-clients';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import { startCopyLoop } from './transactional-copy-loop';

/**
 * Coordinators fail over with their partitions (docs/architecture.md §5): the broker leading a
 * group's `__consumer_offsets` partition, or a transactional id's `__transaction_state`
 * partition, is killed with SIGKILL, and the new leader of that partition takes over its state.
 *
 * What kafkajs 2.2.4 transactions do when their coordinator moves (seen in these tests' runs; the
 * loop prints its failures): the producer re-runs FindCoordinator before every transactional call
 * (AddPartitionsToTxn, AddOffsetsToTxn, EndTxn), retrying it while the old broker refuses
 * connections, so a coordinator that died between two calls is usually found again without an
 * error. A call in flight when its coordinator dies fails the transaction: `commit()` with
 * KafkaJSConnectionError ECONNREFUSED (EndTxn is not retried), `sendOffsets` with
 * KafkaJSConnectionClosedError (its TxnOffsetCommit retry re-finds the group coordinator only on
 * ECONNREFUSED or on the error types 'NOT_COORDINATOR' / 'COORDINATOR_NOT_AVAILABLE', which kafkajs'
 * own table names NOT_COORDINATOR_FOR_GROUP / GROUP_COORDINATOR_NOT_AVAILABLE, so a NOT_COORDINATOR
 * answer fails it too), and a send with LEADER_NOT_AVAILABLE after its retries when a data
 * partition's leader died with it. After a failed `commit()` the producer stays in COMMITTING and
 * refuses `abort()` and new transactions, so the loop restarts its producer and consumer, as an
 * application must (see startCopyLoop).
 */

const OFFSETS_TOPIC = '__consumer_offsets';
const TRANSACTION_STATE_TOPIC = '__transaction_state';
/** Few internal partitions, so that every broker leads some and a load is quick. */
const INTERNAL_PARTITIONS = 3;
const CONFIG = {
  groups: { offsetsTopicPartitions: INTERNAL_PARTITIONS, initialRebalanceDelayMs: 0 },
  transactions: { stateTopicPartitions: INTERNAL_PARTITIONS, abortTimedOutCheckIntervalMs: 1000 },
};
const TIMEOUT_MS = 600_000;
const CONSUMER_TIMEOUTS = { sessionTimeout: 10_000, rebalanceTimeout: 10_000, heartbeatInterval: 1000 };

/**
 * The broker coordinating `key`: the leader of the internal partition FindCoordinator picks for
 * it (coordination/partition-for-key.ts), as etcd records it, once that partition has a leader
 * and a full ISR (so a kill leaves two in-sync replicas to elect from).
 */
async function coordinatorOf(
  cluster: BrokerCluster,
  topic: string,
  key: string,
): Promise<{ partition: number; broker: ClusterBroker; leaderEpoch: number }> {
  const partition = partitionForKey(key, INTERNAL_PARTITIONS);
  let last: unknown;
  const assignment = await pollUntil(
    async () => {
      const found = await storedAssignment(cluster, topic, partition).catch((error: unknown) =>
        String(error),
      );
      last = found;
      return typeof found === 'object' && found.leader > 0 && found.isr.length === 3 ? found : undefined;
    },
    `${topic}-${partition} led with a full ISR`,
    { timeoutMs: 60_000, intervalMs: 200 },
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; last ${JSON.stringify(last)}\n${logsOf(cluster)}`);
  });
  return { partition, broker: cluster.broker(assignment.leader), leaderEpoch: assignment.leaderEpoch };
}

/** Waits until `topic-partition` has a leader other than `victim` (the controller's election). */
async function newLeaderOf(
  cluster: BrokerCluster,
  topic: string,
  partition: number,
  victim: ClusterBroker,
): Promise<{ broker: ClusterBroker; leaderEpoch: number }> {
  let last: unknown;
  const assignment = await pollUntil(
    async () => {
      const found = await storedAssignment(cluster, topic, partition).catch((error: unknown) =>
        String(error),
      );
      last = found;
      return typeof found === 'object' && found.leader > 0 && found.leader !== victim.nodeId
        ? found
        : undefined;
    },
    `a leader of ${topic}-${partition} after broker ${victim.nodeId} died`,
    { timeoutMs: 60_000, intervalMs: 100 },
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; last ${JSON.stringify(last)}\n${logsOf(cluster)}`);
  });
  return { broker: cluster.broker(assignment.leader), leaderEpoch: assignment.leaderEpoch };
}

/** Whether `broker` logged that it replayed `topic-partition` at `leaderEpoch`. */
function replayed(broker: ClusterBroker, topic: string, partition: number, leaderEpoch: number): boolean {
  return broker.process
    .output()
    .split('\n')
    .some(
      (line) =>
        line.includes(`${topic} partition replayed`) &&
        line.includes(`"partition":${partition},`) &&
        line.includes(`"leaderEpoch":${leaderEpoch},`),
    );
}

/**
 * The group's committed offsets of `topic` by partition, from its coordinator (OffsetFetch for
 * every committed partition, retried on COORDINATOR_LOAD_IN_PROGRESS and NOT_COORDINATOR). Weir's
 * admin rather than kafkajs': kafkajs' `fetchOffsets` asks for the partitions its metadata lists,
 * which during an election can be none.
 */
async function committedOffsets(
  cluster: BrokerCluster,
  groupId: string,
  topic: string,
): Promise<Map<number, bigint>> {
  const client = new Client({ bootstrapServers: cluster.bootstrapServers });
  try {
    const offsets = await new Admin(client).fetchOffsets(groupId);
    return new Map(
      offsets.filter((entry) => entry.topic === topic).map((entry) => [entry.partition, entry.offset]),
    );
  } finally {
    await client.close();
  }
}

/** The log end offsets (high watermarks) of `topic` by partition. */
async function endOffsets(kafka: Kafka, topic: string): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const found = await admin.fetchTopicOffsets(topic);
    return new Map(found.map((entry) => [entry.partition, BigInt(entry.high)]));
  } finally {
    await admin.disconnect();
  }
}

/** `promise`, or a rejection naming `what` after `timeoutMs`: a poll's question must not hang it. */
async function within<T>(promise: Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer in ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A timestamped progress line on stderr: what a slow cluster test was waiting for. */
function progress(what: string, detail?: unknown): void {
  process.stderr.write(
    `[coordinator-failover ${new Date().toISOString()}] ${what} ${detail === undefined ? '' : JSON.stringify(detail)}\n`,
  );
}

/** A background idempotent acks=all producer of unique values, until `stop`. */
/**
 * An idempotent acks=all producer sending batches of 10 to one partition at a time, in turn. Never
 * several partitions in one send: kafkajs 2.2.4 loses messages then when a leader moves (its
 * sendMessages keeps, across a retry, the answer of a broker that already replied for another
 * partition, so a partition whose leader moved to that broker is never sent again, and the send
 * still resolves; seen here as an acknowledged batch missing from every replica, with the next
 * batch carrying its sequence numbers).
 */
function produceUntilStopped(kafka: Kafka, topic: string, prefix: string, partitions = 2) {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const acknowledged: string[] = [];
  let running = true;
  let next = 0;
  const done = (async () => {
    await producer.connect();
    for (let round = 0; running; round++) {
      const values = Array.from({ length: 10 }, () => `${prefix}-${next++}`);
      const partition = round % partitions;
      try {
        await producer.send({
          topic,
          acks: -1,
          messages: values.map((value) => ({ key: value, value, partition })),
        });
        acknowledged.push(...values);
      } catch {
        // A send that failed for good during the failover; the next batch goes on.
      }
    }
    await producer.disconnect();
  })();
  return {
    acknowledged: () => acknowledged.length,
    values: () => [...acknowledged],
    stop: async () => {
      running = false;
      await done;
    },
  };
}

function logsOf(cluster: BrokerCluster): string {
  return cluster.brokers
    .filter((broker) => broker.isRunning)
    .map((broker) => `--- broker ${broker.nodeId}\n${broker.process.output()}`)
    .join('\n');
}

describe('coordinators fail over with their partitions', { timeout: TIMEOUT_MS }, () => {
  it('keeps every committed offset of a consumer group across a kill -9 of its coordinator', async () => {
    const cluster = await startReplicatedCluster({ config: CONFIG });
    const kafka = kafkaOf(cluster, 'group-failover');
    await createReplicatedTopics(cluster, ['events'], 3, { clientId: 'group-failover' });
    const producer = produceUntilStopped(kafka, 'events', 'event', 3);
    onTestFinished(() => producer.stop());

    const groupId = 'failover-group';
    const consumer = kafka.consumer({ groupId, ...CONSUMER_TIMEOUTS });
    // What the coordinator acknowledged: kafkajs emits COMMIT_OFFSETS after a successful OffsetCommit.
    const acknowledged = new Map<number, bigint>();
    consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
      for (const topic of payload.topics)
        for (const { partition, offset } of topic.partitions) {
          // kafkajs' payload may carry the partition as a string.
          const previous = acknowledged.get(Number(partition)) ?? -1n;
          if (BigInt(offset) > previous) acknowledged.set(Number(partition), BigInt(offset));
        }
    });
    await consumer.connect();
    onTestFinished(() => consumer.disconnect());
    await consumer.subscribe({ topic: 'events', fromBeginning: true });
    await consumer.run({ eachMessage: async () => {} });
    const acknowledgedTotal = () => [...acknowledged.values()].reduce((sum, offset) => sum + offset, 0n);

    // Committed offsets never go backwards, whichever broker answers for the group.
    const regressions: string[] = [];
    const highest = new Map<number, bigint>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const offsets = await committedOffsets(cluster, groupId, 'events').catch(() => undefined);
        for (const [partition, offset] of offsets ?? []) {
          const previous = highest.get(partition) ?? -1n;
          if (offset < previous) regressions.push(`events-${partition}: ${previous} then ${offset}`);
          else highest.set(partition, offset);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    onTestFinished(async () => {
      sampling = false;
      await sampler;
    });

    for (let round = 0; round < 2; round++) {
      const floor = acknowledgedTotal() + 30n;
      await pollUntil(() => acknowledgedTotal() >= floor, 'commits acknowledged', { timeoutMs: 60_000 });
      const coordinator = await coordinatorOf(cluster, OFFSETS_TOPIC, groupId);
      const acknowledgedBeforeKill = new Map(acknowledged);
      await coordinator.broker.kill9();
      const { broker: successor, leaderEpoch } = await newLeaderOf(
        cluster,
        OFFSETS_TOPIC,
        coordinator.partition,
        coordinator.broker,
      );
      // The first answer of the new coordinator (kafkajs retries COORDINATOR_LOAD_IN_PROGRESS)
      // already holds every commit the old one acknowledged.
      const afterKill = await committedOffsets(cluster, groupId, 'events');
      const lost = [...acknowledgedBeforeKill].filter(
        ([partition, offset]) => (afterKill.get(partition) ?? -1n) < offset,
      );
      expect(
        lost,
        `round ${round}: acknowledged ${JSON.stringify([...acknowledgedBeforeKill].map(String))}, broker ${successor.nodeId} answered ${JSON.stringify([...afterKill].map(String))}\n${logsOf(cluster)}`,
      ).toEqual([]);
      expect(replayed(successor, OFFSETS_TOPIC, coordinator.partition, leaderEpoch), logsOf(cluster)).toBe(
        true,
      );
      // The group goes on committing through the new coordinator.
      const resumed = acknowledgedTotal() + 30n;
      await pollUntil(() => acknowledgedTotal() >= resumed, 'commits through the new coordinator', {
        timeoutMs: 60_000,
      });
      coordinator.broker.spawn();
      await coordinator.broker.waitReady();
    }

    await producer.stop();
    const ends = await endOffsets(kafka, 'events');
    await pollUntil(
      async () => {
        const committed = await committedOffsets(cluster, groupId, 'events');
        return [...ends].every(([partition, end]) => committed.get(partition) === end);
      },
      'the group committed the end of every partition',
      { timeoutMs: 120_000 },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logsOf(cluster)}`);
    });
    sampling = false;
    await sampler;
    expect(regressions).toEqual([]);
    expect(highest.size).toBe(3);
  });
});

/** Every partition's read_committed latest offset (the LSO), next to its high watermark. */
async function stableAndEndOffsets(
  cluster: BrokerCluster,
  topic: string,
  partitions: number,
): Promise<{ stable: bigint; end: bigint }[]> {
  const client = new Client({ bootstrapServers: cluster.bootstrapServers });
  try {
    const results: { stable: bigint; end: bigint }[] = [];
    for (let partition = 0; partition < partitions; partition++) {
      const { leader } = await storedAssignment(cluster, topic, partition);
      const ask = async (isolationLevel: number) => {
        const response = await client.send(leader, ListOffsets, {
          replicaId: -1,
          isolationLevel,
          topics: [
            {
              name: topic,
              partitions: [
                { partitionIndex: partition, currentLeaderEpoch: -1, timestamp: -1n, maxNumOffsets: 1 },
              ],
            },
          ],
        });
        const answer = response.topics[0]!.partitions[0]!;
        expect(answer.errorCode).toBe(0);
        return answer.offset;
      };
      results.push({ stable: await ask(1), end: await ask(0) });
    }
    return results;
  } finally {
    await client.close();
  }
}

describe('a transactional consume-process-produce loop across coordinator failovers', {
  timeout: TIMEOUT_MS,
}, () => {
  it('copies every input exactly once to read_committed readers, leaves no transaction open and no LSO stuck', async () => {
    const cluster = await startReplicatedCluster({ config: CONFIG });
    const kafka = kafkaOf(cluster, 'txn-failover');
    await createReplicatedTopics(cluster, ['in', 'out'], 2, { clientId: 'txn-failover' });
    // __transaction_state is created by the first transactional InitProducerId, and
    // __consumer_offsets by the first group FindCoordinator.
    await committedOffsets(cluster, 'copy-group', 'in');
    const warmup = kafka.producer({ transactionalId: 'warmup', idempotent: true, maxInFlightRequests: 1 });
    await warmup.connect();
    await (await warmup.transaction()).abort();
    await warmup.disconnect();

    // An id and a group coordinated by different brokers, so that each kill moves one coordinator only.
    const groupId = 'copy-group';
    const group = await coordinatorOf(cluster, OFFSETS_TOPIC, groupId);
    let transactionalId = '';
    for (let candidate = 0; transactionalId === ''; candidate++) {
      const found = await coordinatorOf(cluster, TRANSACTION_STATE_TOPIC, `copier-${candidate}`);
      if (found.broker !== group.broker) transactionalId = `copier-${candidate}`;
    }

    const input = produceUntilStopped(kafka, 'in', 'input');
    onTestFinished(() => input.stop());
    const loop = startCopyLoop(kafka, { groupId, transactionalId, consumerTimeouts: CONSUMER_TIMEOUTS });
    onTestFinished(() => loop.stop());

    for (const [topic, key] of [
      [TRANSACTION_STATE_TOPIC, transactionalId],
      [OFFSETS_TOPIC, groupId],
    ] as const) {
      progress(
        `before the ${topic} kill: ${loop.commits()} commits, ${loop.sessions()} sessions`,
        loop.failures,
      );
      const floor = loop.commits() + 5;
      await pollUntil(() => loop.commits() >= floor, 'transactions committed', { timeoutMs: 120_000 });
      const coordinator = await coordinatorOf(cluster, topic, key);
      await coordinator.broker.kill9();
      await newLeaderOf(cluster, topic, coordinator.partition, coordinator.broker);
      progress(`${topic} has a new leader: ${loop.commits()} commits`, loop.failures);
      const resumed = loop.commits() + 5;
      await pollUntil(() => loop.commits() >= resumed, `transactions committed after the ${topic} failover`, {
        timeoutMs: 120_000,
      }).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${JSON.stringify(loop.failures, null, 1)}\n${logsOf(cluster)}`);
      });
      coordinator.broker.spawn();
      await coordinator.broker.waitReady();
    }

    await input.stop();
    progress(`input stopped: ${loop.commits()} commits`, loop.failures);
    const ends = await within(endOffsets(kafka, 'in'), 'the end offsets of in');
    progress('end offsets of in', [...ends].map(String));
    let committed = new Map<number, bigint>();
    await pollUntil(
      async () => {
        committed = await within(committedOffsets(cluster, groupId, 'in'), 'OffsetFetch').catch(
          () => committed,
        );
        return [...ends].every(([partition, end]) => committed.get(partition) === end);
      },
      'the loop committed the end of every input partition',
      { timeoutMs: 120_000, intervalMs: 500 },
    ).catch((error: unknown) => {
      throw new Error(
        `${String(error)}; committed ${JSON.stringify([...committed].map(String))}, ${loop.commits()} commits, ` +
          `${loop.sessions()} sessions, failures ${JSON.stringify(loop.failures)}\n${logsOf(cluster)}`,
      );
    });
    progress('the loop committed the end of in');
    await loop.stop();
    // kafkajs' observable behaviour across the failovers, for docs and the report.
    console.info(
      `copy loop: ${loop.sessions()} sessions, ${loop.commits()} commits, failures:`,
      loop.failures,
    );

    // No transaction of the loop's id is left open past its timeout (10 s) and a check interval.
    // DescribeTransactions and ListTransactions are served on the internal listener (`weir txn`).
    const client = new Client({
      bootstrapServers: cluster.internalBootstrap.split(','),
      clientId: 'txn-inspector',
      sasl: { mechanism: 'WEIR-TOKEN', token: cluster.internalToken },
    });
    onTestFinished(() => client.close());
    const admin = new Admin(client);
    let described: unknown;
    const state = await pollUntil(
      async () => {
        const [description] = await within(
          admin.describeTransactions([transactionalId]),
          'DescribeTransactions',
        );
        described = description;
        return description && !['Ongoing', 'PrepareCommit', 'PrepareAbort'].includes(description.state)
          ? description.state
          : undefined;
      },
      `${transactionalId} finished`,
      { timeoutMs: 30_000 },
    ).catch((error: unknown) => {
      throw new Error(
        `${String(error)}; last ${String(JSON.stringify(described, (_, v) => (typeof v === 'bigint' ? String(v) : v)))}\n${logsOf(cluster)}`,
      );
    });
    expect(['CompleteCommit', 'CompleteAbort', 'Empty']).toContain(state);
    const listed = await admin.listTransactions({ states: ['Ongoing', 'PrepareCommit', 'PrepareAbort'] });
    expect(listed).toEqual([]);

    // read_committed readers are not stuck: every partition's LSO is its end.
    for (const { stable, end } of await stableAndEndOffsets(cluster, 'out', 2)) expect(stable).toBe(end);

    // Exactly once: each input value appears once in the committed output, none missing.
    const inputs = (await kcatReadAll(cluster.bootstrap, 'in')).map((line) => line.split(' ')[3]!);
    expect(new Set(inputs).size).toBe(inputs.length);
    // Every acknowledged (acks=all) input is in the log: replication's promise, checked here too.
    const logged = new Set(inputs);
    const missing = input.values().filter((value) => !logged.has(value));
    expect
      .soft(missing, `${missing.length} of ${input.values().length} acknowledged inputs are not in "in"`)
      .toEqual([]);
    const outputs = await readCommitted(cluster, 'out');
    expect(outputs.length).toBe(inputs.length);
    expect([...outputs].sort()).toEqual([...inputs].sort());
  });
});

/** Every committed value of `topic`, read to the end by kcat with isolation.level=read_committed. */
async function readCommitted(cluster: BrokerCluster, topic: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'kcat',
    [
      '-b',
      cluster.bootstrap,
      '-X',
      'broker.address.family=v4',
      '-X',
      'isolation.level=read_committed',
      '-C',
      '-t',
      topic,
      '-o',
      'beginning',
      '-e',
      '-q',
      '-f',
      '%s\\n',
    ],
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.split('\n').filter((line) => line.length > 0);
}
