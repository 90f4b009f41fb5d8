import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClusterBroker } from '../../apps/broker/test/cluster/broker-cluster';
import type { ClusterSetup } from './bench-setups';
import type { BrokerProbes } from './broker-probes';
import {
  BROKER_COUNT,
  FAILOVER_COUNT,
  FAILOVER_TIMEOUT_MS,
  FAILOVER_TTL_MULTIPLE,
  PROBE_INTERVAL_MS,
} from './cluster-config';
import { type ClusterReport, durationsOf, progress } from './cluster-report';

/** What each broker's Metadata names as controller now (undefined: it did not answer). */
async function controllersNamed(probes: BrokerProbes, brokers: readonly ClusterBroker[]) {
  return Promise.all(
    brokers.map((broker) =>
      probes.metadata(broker, []).then(
        (answer) => ({ controllerId: answer.controllerId, brokerCount: answer.brokers.length }),
        () => undefined,
      ),
    ),
  );
}

/** Waits until every broker runs, lists all brokers and names the same live controller; returns its id. */
async function agreedController(cluster: ClusterSetup, probes: BrokerProbes): Promise<number> {
  const deadlineMs = performance.now() + FAILOVER_TIMEOUT_MS;
  for (;;) {
    const answers = await controllersNamed(probes, cluster.brokers.brokers);
    const first = answers[0]?.controllerId;
    const agreed =
      first !== undefined &&
      first >= 0 &&
      answers.every((answer) => answer?.controllerId === first && answer.brokerCount === BROKER_COUNT);
    if (agreed) return first;
    if (performance.now() > deadlineMs)
      throw new Error(`the brokers did not agree on a controller: ${JSON.stringify(answers)}`);
    await sleep(PROBE_INTERVAL_MS);
  }
}

/**
 * kill -9 of the controller's broker, FAILOVER_COUNT times: each time from the signal to the first
 * Metadata answer of a surviving broker that names another live controller (and, in a note, to
 * the moment all survivors name it). The killed broker is restarted on its data before the next
 * kill, so each kill finds a whole cluster.
 */
export async function measureFailover(
  cluster: ClusterSetup,
  probes: BrokerProbes,
  controllerTtlSeconds: number,
  report: ClusterReport,
): Promise<void> {
  const measurement = `controller failover after kill -9 (election TTL ${controllerTtlSeconds} s)`;
  await report.attempt(cluster.name, measurement, async () => {
    const firstMs: number[] = [];
    const allMs: number[] = [];
    const handovers: string[] = [];
    for (let round = 0; round < FAILOVER_COUNT; round++) {
      const controllerId = await agreedController(cluster, probes);
      const victim = cluster.brokers.broker(controllerId);
      const survivors = cluster.brokers.brokers.filter((broker) => broker !== victim);
      progress(
        `${cluster.name}: kill -9 of controller ${controllerId}, round ${round + 1}/${FAILOVER_COUNT}`,
      );
      const killedMs = performance.now();
      await victim.kill9();
      let first: { ms: number; controllerId: number } | undefined;
      for (;;) {
        const answers = await controllersNamed(probes, survivors);
        const elapsedMs = performance.now() - killedMs;
        const named = answers.filter(
          (answer) =>
            answer !== undefined && answer.controllerId >= 0 && answer.controllerId !== controllerId,
        );
        if (first === undefined && named[0] !== undefined)
          first = { ms: elapsedMs, controllerId: named[0].controllerId };
        if (first !== undefined && named.length === survivors.length) {
          allMs.push(elapsedMs);
          break;
        }
        if (elapsedMs > FAILOVER_TIMEOUT_MS)
          throw new Error(`no new controller ${FAILOVER_TIMEOUT_MS} ms after killing broker ${controllerId}`);
        await sleep(PROBE_INTERVAL_MS);
      }
      firstMs.push(first.ms);
      handovers.push(`${controllerId} → ${first.controllerId} in ${(first.ms / 1000).toFixed(2)} s`);
      progress(`${cluster.name}: restarting broker ${controllerId}`);
      await victim.restart();
    }
    await agreedController(cluster, probes);
    const all = durationsOf(allMs);
    report.notes.push(
      `Controller failover: ${handovers.join('; ')}; all survivors named the new controller after at most ` +
        `${(all.maxMs / 1000).toFixed(2)} s. Each killed broker was restarted on its data before the next kill.`,
    );
    const limitMs = FAILOVER_TTL_MULTIPLE * controllerTtlSeconds * 1000;
    const row = { setup: cluster.name, measurement, durations: durationsOf(firstMs) };
    report.setTarget(row, `max < ${FAILOVER_TTL_MULTIPLE} × TTL = ${limitMs} ms`, row.durations.maxMs, {
      kind: 'at-most',
      threshold: limitMs,
      reference: 'TTL',
      referenceValue: controllerTtlSeconds * 1000,
    });
    return [row];
  });
}
