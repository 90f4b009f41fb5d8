import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Admin, Client, InternalAdmin, Producer } from '@weir/protocol';
import { type BrokerCluster, startBrokerCluster } from '../../apps/broker/test/cluster/broker-cluster';
import { storedAssignment } from '../../apps/broker/test/cluster/cluster-clients';
import { startEtcd } from '../../apps/broker/test/cluster/etcd-process';
import { FLUSH_MS } from '../broker/bench-config';
import {
  MIN_INSYNC_REPLICAS,
  MOVE_BYTES,
  MOVE_THROTTLE_BYTES_PER_SECOND,
  MOVE_TIMEOUT_MS,
  STEADY_BASELINE_MS,
} from './cluster-config';
import { type ClusterReport, type ClusterRow, durationsOf, progress } from './cluster-report';
import { measureIsrPageDetection } from './isr-page-detection';
import { SteadyProducer } from './steady-producer';

const TOPIC = 'bench-move';
/** The records that fill the partition: 16 KiB values, sent 64 to a request. */
const FILL_VALUE_BYTES = 16 * 1024;
const FILL_RECORDS_PER_SEND = 64;

/**
 * Issue 18's reassignment rows: a partition of MOVE_BYTES (1 GiB by default) on three brokers of
 * a four-broker cluster moves one replica to the fourth and back, once without a throttle and once
 * with follower.replication.throttled.rate at MOVE_THROTTLE_BYTES_PER_SECOND, while an acks=all
 * producer sends one record at a time to it. Each row is the time from the alter to the
 * completed assignment in etcd; the producer's latency during each move is set against its
 * latency before any move (the baseline), measured in the same run.
 */
export async function measureReassignment(report: ClusterReport): Promise<void> {
  const setup = '4 brokers, RF 3';
  await report.attempt(setup, 'reassignment', async () => {
    progress('starting a four-broker cluster for the reassignment rows');
    const etcd = await startEtcd();
    try {
      const cluster = await startBrokerCluster({
        etcd,
        brokers: 4,
        config: { log: { flushMs: FLUSH_MS }, logging: { level: 'warn' } },
      });
      try {
        const rows = await moveUnderLoad(cluster, setup, report);
        // The same cluster, moves done: the ISR page row.
        return [...rows, ...(await measureIsrPageDetection(cluster, TOPIC, setup, report))];
      } finally {
        await cluster.stop();
      }
    } finally {
      await etcd.stop();
    }
  });
}

async function moveUnderLoad(
  cluster: BrokerCluster,
  setup: string,
  report: ClusterReport,
): Promise<ClusterRow[]> {
  const client = new Client({ bootstrapServers: cluster.bootstrapServers });
  const internalClient = new Client({
    bootstrapServers: [cluster.broker(1).internalAddress],
    sasl: { mechanism: 'WEIR-TOKEN', token: cluster.internalToken },
  });
  const admin = new Admin(client);
  const internal = new InternalAdmin(internalClient);
  try {
    await admin.createTopics([
      {
        name: TOPIC,
        partitions: 1,
        replicationFactor: 3,
        configs: { 'min.insync.replicas': String(MIN_INSYNC_REPLICAS) },
      },
    ]);
    const placed = await placedReplicas(cluster);
    await fill(client);
    await fullIsr(cluster, placed);
    // The last replica moves to the broker that holds none, and back.
    const spare = [1, 2, 3, 4].find((id) => !placed.includes(id))!;
    const moved = [...placed.slice(0, -1), spare];
    const from = placed.at(-1)!;
    const steady = new SteadyProducer(cluster.bootstrapServers, TOPIC);
    try {
      // The first acks=all acknowledgement waits until every follower has the whole fill; only then
      // is the cluster at rest, for the baseline and for the moves.
      await firstAck(steady);
      const baselineFromMs = performance.now();
      await sleep(STEADY_BASELINE_MS);
      const baseline = durationsOf(steady.latenciesBetween(baselineFromMs, performance.now()));
      const rows: ClusterRow[] = [
        { setup, measurement: 'acks=all producer latency before any move (baseline)', durations: baseline },
      ];
      const gib = `${(MOVE_BYTES / 2 ** 30).toFixed(2)} GiB`;
      const unthrottled = await timeMove(cluster, internal, steady, moved, 'unthrottled');
      rows.push(...moveRows(setup, `move a ${gib} replica away, no throttle`, unthrottled, baseline, report));
      const rate = MOVE_THROTTLE_BYTES_PER_SECOND;
      await setThrottle(admin, rate);
      const throttled = await timeMove(cluster, internal, steady, placed, `throttled to ${rate} B/s`);
      await setThrottle(admin, undefined);
      rows.push(
        ...moveRows(
          setup,
          `move it back, throttle ${(rate / 2 ** 20).toFixed(0)} MiB/s`,
          throttled,
          baseline,
          report,
        ),
      );
      report.notes.push(
        `Reassignment: one partition of ${gib} (${FILL_VALUE_BYTES / 1024} KiB records) on brokers ${placed.join(', ')}, ` +
          `min.insync.replicas 2; replica ${from} moved to broker ${spare} and back, timed from AlterPartitionReassignments ` +
          'to the completed assignment in etcd, while an acks=all SDK producer sent one record at a time (its ' +
          `latency rows are its sends during each move, against ${STEADY_BASELINE_MS / 1000} s before any move). ` +
          `The throttled move expects at least ${(MOVE_BYTES / rate).toFixed(1)} s (size / rate).`,
      );
      return rows;
    } finally {
      await steady.close();
    }
  } finally {
    await internalClient.close();
    await client.close();
  }
}

interface TimedMove {
  durationMs: number;
  latenciesMs: number[];
}

async function timeMove(
  cluster: BrokerCluster,
  internal: InternalAdmin,
  steady: SteadyProducer,
  target: number[],
  label: string,
): Promise<TimedMove> {
  progress(`reassignment: moving to ${target.join(',')}, ${label}`);
  const startedMs = performance.now();
  const [result] = await internal.alterPartitionReassignments([
    { topic: TOPIC, partition: 0, replicas: target },
  ]);
  if (result === undefined || result.errorCode !== 0) {
    throw new Error(`the move to ${target.join(',')} was refused: ${result?.errorMessage ?? 'no answer'}`);
  }
  await fullIsr(cluster, target);
  const endedMs = performance.now();
  return { durationMs: endedMs - startedMs, latenciesMs: steady.latenciesBetween(startedMs, endedMs) };
}

function moveRows(
  setup: string,
  measurement: string,
  move: TimedMove,
  baseline: ReturnType<typeof durationsOf>,
  report: ClusterReport,
): ClusterRow[] {
  const time = { setup, measurement: `${measurement}: time`, durations: durationsOf([move.durationMs]) };
  const latency = durationsOf(move.latenciesMs);
  const during = { setup, measurement: `${measurement}: acks=all producer latency`, durations: latency };
  report.setBaseline(
    during,
    'the latency before any move',
    `${(latency.p99Ms / baseline.p99Ms).toFixed(2)} × (p99)`,
  );
  return [time, during];
}

async function firstAck(steady: SteadyProducer): Promise<void> {
  const deadlineMs = performance.now() + MOVE_TIMEOUT_MS;
  while (steady.firstAckedSince(0) === undefined) {
    if (performance.now() > deadlineMs) throw new Error('the steady producer was never acknowledged');
    await sleep(20);
  }
}

/** The replicas CreateTopics placed the partition on, once it has a leader. */
async function placedReplicas(cluster: BrokerCluster): Promise<number[]> {
  const deadlineMs = performance.now() + MOVE_TIMEOUT_MS;
  for (;;) {
    const stored = await storedAssignment(cluster, TOPIC, 0).catch(() => undefined);
    if (stored !== undefined && stored.leader > 0) return stored.replicas;
    if (performance.now() > deadlineMs) throw new Error(`${TOPIC}-0 has no leader`);
    await sleep(20);
  }
}

/** Writes MOVE_BYTES to the partition with acks=1, many records a request, then waits for the ISR. */
async function fill(client: Client): Promise<void> {
  const producer = new Producer(client, { acks: 1 });
  const value = Buffer.alloc(FILL_VALUE_BYTES, 'x');
  const sends = Math.ceil(MOVE_BYTES / (FILL_VALUE_BYTES * FILL_RECORDS_PER_SEND));
  progress(`reassignment: writing ${(MOVE_BYTES / 2 ** 20).toFixed(0)} MiB to ${TOPIC}`);
  try {
    const inFlight = new Set<Promise<unknown>>();
    for (let index = 0; index < sends; index++) {
      const sent = producer.send({
        topic: TOPIC,
        messages: Array.from({ length: FILL_RECORDS_PER_SEND }, () => ({ partition: 0, value })),
      });
      inFlight.add(sent);
      void sent.finally(() => inFlight.delete(sent));
      if (inFlight.size >= 8) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    await producer.close();
  }
}

/** Waits until the partition's replicas are `replicas`, no move is left and all are in sync. */
async function fullIsr(cluster: BrokerCluster, replicas: number[]): Promise<void> {
  const deadlineMs = performance.now() + MOVE_TIMEOUT_MS;
  for (;;) {
    const stored = await storedAssignment(cluster, TOPIC, 0).catch(() => undefined);
    if (
      stored !== undefined &&
      stored.replicas.join() === replicas.join() &&
      (stored.addingReplicas ?? []).length === 0 &&
      stored.isr.length === replicas.length
    )
      return;
    if (performance.now() > deadlineMs) {
      throw new Error(`${TOPIC}-0 not on ${replicas.join(',')} in sync within ${MOVE_TIMEOUT_MS} ms`);
    }
    await sleep(20);
  }
}

async function setThrottle(admin: Admin, rate: number | undefined): Promise<void> {
  await admin.incrementalAlterConfigs([
    {
      type: 'broker',
      name: '',
      changes: [
        rate === undefined
          ? { name: 'follower.replication.throttled.rate', operation: 'delete' }
          : { name: 'follower.replication.throttled.rate', operation: 'set', value: String(rate) },
      ],
    },
  ]);
}
