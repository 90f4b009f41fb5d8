import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { type ClusterBroker, startBrokerCluster } from './broker-cluster';
import { startEtcd } from './etcd-process';

const FAST = { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3 } };
const TIMEOUT_MS = 180_000;

/** One unlabelled sample's value in Prometheus text, or undefined when it is absent. */
function sampleValue(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function scrape(broker: ClusterBroker): Promise<{ controller?: number; sessionStarts?: number }> {
  const text = await (await fetch(broker.metricsUrl, { signal: AbortSignal.timeout(2000) })).text();
  return {
    controller: sampleValue(text, 'weir_controller_active'),
    sessionStarts: sampleValue(text, 'weir_broker_session_starts_total'),
  };
}

/**
 * `weir_controller_active` and `weir_broker_session_starts_total` on a real three-broker cluster,
 * the series the controller-absent and session-flapping alerts read (deploy/prometheus/weir-alerts.yml):
 * exactly one broker reports being controller, another takes over when the controller loses its
 * etcd session, and the lost session's new registration is counted.
 */
describe('cluster role metrics', { timeout: TIMEOUT_MS }, () => {
  it('reports one controller, the next one after its session is lost, and counts the re-registration', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({ etcd, brokers: 3, config: FAST, etcdProxies: true });
    onTestFinished(() => cluster.stop());
    const scrapeAll = () => Promise.all(cluster.brokers.map(scrape));

    const first = await pollUntil(async () => {
      const samples = await scrapeAll();
      return samples.filter((sample) => sample.controller === 1).length === 1 ? samples : undefined;
    }, 'exactly one broker reporting weir_controller_active 1');
    expect(first.map((sample) => sample.controller).sort()).toEqual([0, 0, 1]);
    expect(first.map((sample) => sample.sessionStarts)).toEqual([1, 1, 1]);
    const controller = cluster.brokers[first.findIndex((sample) => sample.controller === 1)]!;
    const others = cluster.brokers.filter((broker) => broker !== controller);

    controller.isolateFromEtcd();
    await pollUntil(
      async () => {
        const samples = await scrapeAll();
        const isolated = samples[cluster.brokers.indexOf(controller)]!;
        // The cut-off broker stops claiming the title once its lease is gone, though its image
        // still names it: exactly one controller in the cluster, and not that one.
        return isolated.controller === 0 && samples.filter((sample) => sample.controller === 1).length === 1
          ? samples
          : undefined;
      },
      'another broker, and only it, reporting weir_controller_active 1 after the controller lost etcd',
      { timeoutMs: 60_000, intervalMs: 200 },
    );

    controller.reconnectToEtcd();
    const after = await pollUntil(
      async () => {
        const samples = await scrapeAll();
        const index = cluster.brokers.indexOf(controller);
        return samples[index]!.sessionStarts === 2 && samples.filter((s) => s.controller === 1).length === 1
          ? samples
          : undefined;
      },
      'the isolated broker registered again and one controller',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(after[cluster.brokers.indexOf(controller)]!.controller).toBe(0);
    expect(others.map((broker) => after[cluster.brokers.indexOf(broker)]!.sessionStarts)).toEqual([1, 1]);
  });
});
