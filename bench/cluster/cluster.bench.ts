import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { brokerConfigSchema } from '@weir/broker';
import { runBenchMain } from '../harness/run-bench-main';
import { replicatedSetup, startCluster, startStandalone, unreplicatedSetup } from './bench-setups';
import { BrokerProbes } from './broker-probes';
import {
  LAG_AT_REST_SECONDS,
  LAG_POLL_INTERVAL_MS,
  MIN_INSYNC_REPLICAS,
  REPLICATION_FACTOR,
  RUN_TIMEOUT_MS,
  SIZES,
} from './cluster-config';
import { ClusterReport, durationsOf, progress } from './cluster-report';
import { measureFailover } from './controller-failover';
import { measureEtcdAtRest } from './etcd-at-rest';
import { measureLeaderFailover } from './leader-failover';
import { describeRouting, leaderSpread, requestCounts } from './leader-routing';
import { measureReassignment } from './reassignment-move';
import { ReplicationLagProbe } from './replication-lag';
import { printResults } from './results-table';
import { consumedTopic, measureThroughput } from './throughput';
import { measurePropagation } from './topic-propagation';

/**
 * Cluster benchmark (issue 16, "Benchmark"): three brokers in cluster mode on one etcd member
 * against one standalone broker, in the same run, all child processes on 127.0.0.1 under a
 * temporary directory removed at the end. It measures SDK produce and consume throughput over all
 * partitions of a topic spread over the brokers (the cluster as a ratio of standalone), the time
 * from CreateTopics to the topic being in every broker's Metadata, etcd's calls at rest (from
 * etcd's own metrics), and controller failover after kill -9 of the controller's broker (last,
 * since it takes partitions offline). Issue 17 adds, in the same rounds, produce throughput on
 * topics replicated at RF 3 (min.insync.replicas 2) against standalone, the replication lag under
 * that load (replication-lag.ts), and, on a cluster of its own with short TTLs, the time from
 * kill -9 of a partition leader to the first acknowledged produce on its successor
 * (leader-failover.ts). Issue 18 adds, on a four-broker cluster of its own, the move of a 1 GiB
 * replica with and without a throttle and the acks=all producer latency during each move
 * (reassignment-move.ts). The clusters are started by the cluster tests' fixtures
 * (apps/broker/test/cluster/). Knobs: cluster-config.ts.
 */

async function main(root: string): Promise<void> {
  const startedMs = Date.now();
  // Other work on a shared machine skews every row; the load averages tell the reader whether it did.
  const loadAtStart = os.loadavg()[0]!;
  const defaults = brokerConfigSchema.parse({ dataDir: root }).cluster;
  const ttls = `election TTL ${defaults.controllerTtlSeconds} s, session TTL ${defaults.sessionTtlSeconds} s: the defaults`;
  const report = new ClusterReport();
  progress('starting the standalone broker, etcd and the cluster');
  const standalone = await startStandalone(root);
  try {
    const cluster = await startCluster();
    const probes = new BrokerProbes();
    const lagProbe = new ReplicationLagProbe(cluster.brokers.bootstrapServers);
    try {
      await lagProbe.createTopic();
      progress(`replication lag probe at rest for ${LAG_AT_REST_SECONDS} s`);
      const atRest = await lagProbe.sampleFor(LAG_AT_REST_SECONDS);
      const before = await requestCounts(cluster);
      const replicated = replicatedSetup(cluster, {
        factor: REPLICATION_FACTOR,
        minInsyncReplicas: MIN_INSYNC_REPLICAS,
      });
      const underLoad = await measureThroughput(
        root,
        standalone,
        [unreplicatedSetup(cluster), replicated],
        report,
        lagProbe,
      );
      const after = await requestCounts(cluster);
      addLagRows(report, replicated.name, atRest, underLoad);
      const spread = await leaderSpread(cluster, consumedTopic(SIZES[0]!, 0)).catch((error: unknown) =>
        String(error),
      );
      report.notes.push(
        `Leader routing on the cluster: ${spread}; requests during the cluster's runs (the SDK bootstrapped ` +
          `from broker 1): ${describeRouting(before, after)}.`,
      );
      await standalone.stop();
      await measurePropagation(cluster, probes, report);
      await measureEtcdAtRest(cluster, defaults, report);
      await measureFailover(cluster, probes, defaults.controllerTtlSeconds, report);
    } finally {
      await lagProbe.close();
      probes.close();
      await cluster.stop();
    }
  } finally {
    await standalone.stop();
  }
  await measureLeaderFailover(report);
  await measureReassignment(report);
  printResults(report, { startedMs, loadAtStart, ttls });
}

/**
 * The replication lag rows: the probe on the idle cluster (the baseline) and during the replicated
 * produce runs of each size, with the load's p99 over the idle p99 as the ratio (issue 17 sets no
 * target for it).
 */
function addLagRows(
  report: ClusterReport,
  setup: string,
  atRest: number[],
  underLoad: ReadonlyMap<(typeof SIZES)[number], number[]>,
): void {
  const what = 'replication lag: acks=1 ack to high watermark';
  const rest = durationsOf(atRest);
  if (rest.count === 0) return;
  const restRow = { setup, measurement: `${what}, at rest`, durations: rest };
  report.rows.push(restRow);
  for (const [size, samples] of underLoad) {
    if (samples.length === 0) continue;
    const durations = durationsOf(samples);
    const row = { setup, measurement: `${what}, under the ${size.label} RF 3 produce runs`, durations };
    report.rows.push(row);
    report.setBaseline(
      row,
      'none; baseline at rest',
      `${(durations.p99Ms / rest.p99Ms).toFixed(2)} × at rest (p99)`,
    );
  }
  report.notes.push(
    "Replication lag: the time from a 100 B record's acks=1 acknowledgement by its leader to the " +
      "leader's high watermark passing it (every in-sync follower fetched it, fdatasynced it and said so " +
      'in its next fetch), one record at a time on a 3-partition RF 3 topic, the high watermark polled with ' +
      `ListOffsets every ${LAG_POLL_INTERVAL_MS} ms. "Under load" samples were taken while the RF 3 produce runs (acks=1 and ` +
      "acks=all) were timed; their followers fetch from each leader in the same session as the probe's.",
  );
}

const root = await mkdtemp(join(os.tmpdir(), 'weir-cluster-bench-'));
runBenchMain(() => main(root).finally(() => rm(root, { recursive: true, force: true })), {
  name: 'cluster',
  timeoutMs: RUN_TIMEOUT_MS,
  killing: 'etcd and the brokers',
  onTimeout: () => rmSync(root, { recursive: true, force: true }),
});
