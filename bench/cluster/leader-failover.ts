import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Admin, Client } from '@weir/protocol';
import { type BrokerCluster, startBrokerCluster } from '../../apps/broker/test/cluster/broker-cluster';
import { storedAssignment } from '../../apps/broker/test/cluster/cluster-clients';
import { startEtcd } from '../../apps/broker/test/cluster/etcd-process';
import { FLUSH_MS } from '../broker/bench-config';
import {
  BROKER_COUNT,
  FAILOVER_CONTROLLER_TTL_SECONDS,
  FAILOVER_SESSION_TTL_SECONDS,
  FAILOVER_TIMEOUT_MS,
  LEADER_FAILOVER_P99_TARGET_MS,
  LEADER_KILL_COUNT,
  MIN_INSYNC_REPLICAS,
  REPLICATION_FACTOR,
} from './cluster-config';
import { type ClusterReport, durationsOf, progress } from './cluster-report';
import { SteadyProducer } from './steady-producer';

const TOPIC = 'bench-leader-failover';

async function pollFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadlineMs = performance.now() + FAILOVER_TIMEOUT_MS;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (performance.now() > deadlineMs) throw new Error(`no ${what} within ${FAILOVER_TIMEOUT_MS} ms`);
    await sleep(5);
  }
}

/** The partition's leader once all its replicas are in the ISR (as etcd holds it). */
function fullIsrLeader(cluster: BrokerCluster): Promise<number> {
  return pollFor('full ISR on the failover topic', async () => {
    const stored = await storedAssignment(cluster, TOPIC, 0).catch(() => undefined);
    return stored !== undefined && stored.leader > 0 && stored.isr.length === REPLICATION_FACTOR
      ? stored.leader
      : undefined;
  });
}

/**
 * kill -9 of the leader of a replicated partition, LEADER_KILL_COUNT times, under an idempotent
 * acks=all producer sending one record at a time: each time from the signal to the first
 * acknowledgement of a send started after it (so it was stored by the successor and its ISR, not
 * answered by the dead leader). Runs on a cluster of its own with the short TTLs of
 * cluster-config.ts, since the leader's session TTL bounds the time. The killed broker is
 * restarted and back in the ISR before the next kill.
 */
export async function measureLeaderFailover(report: ClusterReport): Promise<void> {
  const ttls = `session TTL ${FAILOVER_SESSION_TTL_SECONDS} s, election TTL ${FAILOVER_CONTROLLER_TTL_SECONDS} s`;
  const setupName = `${BROKER_COUNT} brokers, RF ${REPLICATION_FACTOR}`;
  const measurement = `leader failover: kill -9 to first acks=all ack (${ttls})`;
  await report.attempt(setupName, measurement, async () => {
    progress(`starting a cluster with ${ttls} for the leader failover`);
    const etcd = await startEtcd();
    try {
      const cluster = await startBrokerCluster({
        etcd,
        brokers: BROKER_COUNT,
        config: {
          cluster: {
            sessionTtlSeconds: FAILOVER_SESSION_TTL_SECONDS,
            controllerTtlSeconds: FAILOVER_CONTROLLER_TTL_SECONDS,
          },
          log: { flushMs: FLUSH_MS },
          logging: { level: 'warn' },
        },
      });
      try {
        return await killLeaders(cluster, setupName, measurement, report);
      } finally {
        await cluster.stop();
      }
    } finally {
      await etcd.stop();
    }
  });
}

async function killLeaders(
  cluster: BrokerCluster,
  setupName: string,
  measurement: string,
  report: ClusterReport,
) {
  const client = new Client({ bootstrapServers: cluster.bootstrapServers });
  const admin = new Admin(client);
  try {
    await admin.createTopics([
      {
        name: TOPIC,
        partitions: 1,
        replicationFactor: REPLICATION_FACTOR,
        configs: { 'min.insync.replicas': String(MIN_INSYNC_REPLICAS) },
      },
    ]);
    return await killUnderLoad(cluster, admin, setupName, measurement, report);
  } finally {
    await client.close();
  }
}

async function killUnderLoad(
  cluster: BrokerCluster,
  admin: Admin,
  setupName: string,
  measurement: string,
  report: ClusterReport,
) {
  const producer = new SteadyProducer(cluster.bootstrapServers, TOPIC);
  const samplesMs: number[] = [];
  const kills: string[] = [];
  try {
    for (let round = 0; round < LEADER_KILL_COUNT; round++) {
      const leaderId = await fullIsrLeader(cluster);
      // A whole cluster under load before each kill: the producer has been acknowledged lately.
      const sinceMs = performance.now();
      await pollFor('acknowledgement before the kill', () => producer.firstAckedSince(sinceMs));
      const controllerId = await admin.describeCluster().then(
        (metadata) => metadata.controllerId,
        () => undefined,
      );
      const victim = cluster.broker(leaderId);
      progress(`leader failover: kill -9 of leader ${leaderId}, round ${round + 1}/${LEADER_KILL_COUNT}`);
      const killedMs = performance.now();
      await victim.kill9();
      const first = await pollFor('acknowledgement from the successor', () =>
        producer.firstAckedSince(killedMs),
      );
      const failedSends = producer.sends.filter((send) => !send.ok && send.endedMs >= killedMs).length;
      samplesMs.push(first.endedMs - killedMs);
      kills.push(
        `${leaderId}${leaderId === controllerId ? ' (controller)' : ''} ${((first.endedMs - killedMs) / 1000).toFixed(2)} s` +
          (failedSends > 0 ? ` (${failedSends} sends failed)` : ''),
      );
      victim.spawn();
      await victim.waitReady();
    }
    await fullIsrLeader(cluster);
  } finally {
    await producer.close();
  }
  const acknowledged = producer.sends.filter((send) => send.ok).length;
  const failed = producer.sends.length - acknowledged;
  report.notes.push(
    `Leader failover (${REPLICATION_FACTOR} replicas, min.insync.replicas ${MIN_INSYNC_REPLICAS}, one partition, an ` +
      'idempotent acks=all SDK producer with its default retries sending one record at a time): kill -9 of the leader ' +
      `to the first acknowledgement of a send started after the kill, per kill: ${kills.join('; ')}. ` +
      `${acknowledged} sends acknowledged, ${failed} failed over the run. Each killed broker was restarted and back ` +
      'in the ISR before the next kill.',
  );
  const row = { setup: setupName, measurement, durations: durationsOf(samplesMs) };
  report.setTarget(row, `p99 < ${LEADER_FAILOVER_P99_TARGET_MS} ms`, row.durations.p99Ms, {
    kind: 'at-most',
    threshold: LEADER_FAILOVER_P99_TARGET_MS,
    reference: 'session TTL',
    referenceValue: FAILOVER_SESSION_TTL_SECONDS * 1000,
  });
  return [row];
}
