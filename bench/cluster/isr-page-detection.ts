import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { brokerConfigSchema } from '@weir/broker';
import type { BrokerCluster } from '../../apps/broker/test/cluster/broker-cluster';
import { storedAssignment } from '../../apps/broker/test/cluster/cluster-clients';
import { ensureConsoleBuild, startConsole } from '../console/console-server';
import { ISR_PAGE_KILLS, MOVE_TIMEOUT_MS } from './cluster-config';
import { type ClusterReport, type ClusterRow, durationsOf, progress } from './cluster-report';

/** What the ISR page's REST twin answers, as far as this row reads it. */
interface ReplicationHealthAnswer {
  partitions: { topic: string; partition: number; isr: number[]; replicas: number[]; reasons: string[] }[];
}

/** How often the console is asked, as a browser polling the page would be (and no faster). */
const POLL_INTERVAL_MS = 100;

/**
 * Issue 18's ISR page row: kill -9 of a follower of `topic`-0, then the time until the console's
 * ISR health (GET /api/v1/replication/health, the data the /replication page renders) lists the
 * partition with that follower out of its ISR. The production console build serves it, pointed at
 * the cluster's internal listeners. The target is the ISR lag time (replica.lag.time.max.ms) plus
 * 2 s; with the default settings the follower's session TTL, which is shorter, usually decides.
 */
export async function measureIsrPageDetection(
  cluster: BrokerCluster,
  topic: string,
  setup: string,
  report: ClusterReport,
): Promise<ClusterRow[]> {
  await ensureConsoleBuild(10 * 60_000);
  const console = await startConsole({
    internalBootstrap: cluster.internalBootstrap,
    internalToken: cluster.internalToken,
    timeoutMs: 60_000,
  });
  const defaults = brokerConfigSchema.parse({ dataDir: '/unused' });
  const lagTimeMs = defaults.replication.replicaLagTimeMaxMs;
  const samplesMs: number[] = [];
  try {
    for (let round = 0; round < ISR_PAGE_KILLS; round++) {
      const assignment = await inSync(cluster, topic);
      const followerId = assignment.replicas.find((id) => id !== assignment.leader)!;
      const follower = cluster.broker(followerId);
      progress(`ISR page: kill -9 of follower ${followerId}, round ${round + 1}/${ISR_PAGE_KILLS}`);
      const killedMs = performance.now();
      await follower.kill9();
      await shown(console.url, topic, followerId);
      samplesMs.push(performance.now() - killedMs);
      follower.spawn();
      await follower.waitReady();
    }
    await inSync(cluster, topic);
  } finally {
    await console.stop(10_000);
  }
  const measurement = 'follower kill -9 → the console’s ISR health shows it';
  const durations = durationsOf(samplesMs);
  const row: ClusterRow = { setup, measurement, durations };
  report.setTarget(row, `p99 ≤ lag time + 2 s (${lagTimeMs + 2000} ms)`, durations.p99Ms, {
    kind: 'at-most',
    threshold: lagTimeMs + 2000,
    reference: 'replica.lag.time.max.ms',
    referenceValue: lagTimeMs,
  });
  report.notes.push(
    `ISR page: ${ISR_PAGE_KILLS} kill -9 of a follower of ${topic}-0 with the default settings (session TTL ` +
      `${defaults.cluster.sessionTtlSeconds} s, replica.lag.time.max.ms ${lagTimeMs} ms), timed to the first answer of ` +
      `GET /api/v1/replication/health from the production console (\`next start\`, asked every ${POLL_INTERVAL_MS} ms) ` +
      'listing the partition without that follower in its ISR; each follower restarted and back in sync before the next.',
  );
  return [row];
}

async function shown(consoleUrl: string, topic: string, brokerId: number): Promise<void> {
  const deadlineMs = performance.now() + MOVE_TIMEOUT_MS;
  for (;;) {
    const response = await fetch(
      `${consoleUrl}/api/v1/replication/health?topic=${encodeURIComponent(topic)}`,
    );
    if (response.ok) {
      const health = (await response.json()) as ReplicationHealthAnswer;
      const row = health.partitions.find((partition) => partition.partition === 0);
      if (row?.replicas.includes(brokerId) && !row.isr.includes(brokerId)) return;
    }
    if (performance.now() > deadlineMs)
      throw new Error(`the ISR page did not show broker ${brokerId} out of sync`);
    await sleep(POLL_INTERVAL_MS);
  }
}

async function inSync(cluster: BrokerCluster, topic: string) {
  const deadlineMs = performance.now() + MOVE_TIMEOUT_MS;
  for (;;) {
    const stored = await storedAssignment(cluster, topic, 0).catch(() => undefined);
    if (stored !== undefined && stored.leader > 0 && stored.isr.length === stored.replicas.length)
      return stored;
    if (performance.now() > deadlineMs) throw new Error(`${topic}-0 not back in sync`);
    await sleep(50);
  }
}
