import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { brokerConfigSchema } from '@weir/broker';
import { runBenchMain } from '../harness/run-bench-main';
import { startCluster, startStandalone } from './bench-setups';
import { BrokerProbes } from './broker-probes';
import { RUN_TIMEOUT_MS, SIZES } from './cluster-config';
import { ClusterReport, progress } from './cluster-report';
import { measureFailover } from './controller-failover';
import { measureEtcdAtRest } from './etcd-at-rest';
import { describeRouting, leaderSpread, requestCounts } from './leader-routing';
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
 * since it takes partitions offline). The cluster is started by the cluster tests' fixtures
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
    try {
      const before = await requestCounts(cluster);
      await measureThroughput(root, standalone, cluster, report);
      const after = await requestCounts(cluster);
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
      probes.close();
      await cluster.stop();
    }
  } finally {
    await standalone.stop();
  }
  printResults(report, { startedMs, loadAtStart, ttls });
}

const root = await mkdtemp(join(os.tmpdir(), 'weir-cluster-bench-'));
runBenchMain(() => main(root).finally(() => rm(root, { recursive: true, force: true })), {
  name: 'cluster',
  timeoutMs: RUN_TIMEOUT_MS,
  killing: 'etcd and the brokers',
  onTimeout: () => rmSync(root, { recursive: true, force: true }),
});
