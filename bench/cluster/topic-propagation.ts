import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@weir/protocol';
import type { ClusterBroker } from '../../apps/broker/test/cluster/broker-cluster';
import { PARTITION_COUNT } from '../broker/bench-config';
import type { ClusterSetup } from './bench-setups';
import type { BrokerProbes } from './broker-probes';
import {
  PROBE_INTERVAL_MS,
  PROPAGATION_P99_TARGET_MS,
  PROPAGATION_TIMEOUT_MS,
  TOPIC_COUNT,
} from './cluster-config';
import { type ClusterReport, durationsOf, progress } from './cluster-report';

export const PROPAGATION_MEASUREMENT = `CreateTopics → in every broker's Metadata (${PARTITION_COUNT} partitions, leaders)`;

/**
 * Resolves with the time since `startedMs` at which `broker`'s Metadata first lists `topic` with
 * every partition led; asked every PROBE_INTERVAL_MS on a connection of its own.
 */
async function listedAt(
  probes: BrokerProbes,
  broker: ClusterBroker,
  topic: string,
  startedMs: number,
): Promise<number> {
  for (;;) {
    const answer = await probes.metadata(broker, [topic]);
    const found = answer.topics.find((entry) => entry.name === topic);
    if (
      found !== undefined &&
      found.errorCode === ErrorCode.NONE &&
      found.partitions.length === PARTITION_COUNT &&
      found.partitions.every((partition) => partition.leaderId >= 0)
    ) {
      return performance.now() - startedMs;
    }
    if (performance.now() - startedMs > PROPAGATION_TIMEOUT_MS) {
      throw new Error(`broker ${broker.nodeId} did not list ${topic} within ${PROPAGATION_TIMEOUT_MS} ms`);
    }
    await sleep(PROBE_INTERVAL_MS);
  }
}

/**
 * Creates TOPIC_COUNT topics one after another through the SDK admin (which sends CreateTopics to
 * the controller) and times each from the request to the moment the last broker's Metadata lists
 * it with a leader for every partition. Every broker is probed from the start, while the request
 * is in flight.
 */
export async function measurePropagation(
  cluster: ClusterSetup,
  probes: BrokerProbes,
  report: ClusterReport,
): Promise<void> {
  await report.attempt(cluster.name, PROPAGATION_MEASUREMENT, async () => {
    progress(`${cluster.name}: creating ${TOPIC_COUNT} topics`);
    const everywhereMs: number[] = [];
    const answeredMs: number[] = [];
    for (let index = 0; index < TOPIC_COUNT; index++) {
      const topic = `propagation-${index}`;
      const startedMs = performance.now();
      const created = cluster.admin
        .createTopics([{ name: topic, partitions: PARTITION_COUNT }])
        .then(() => answeredMs.push(performance.now() - startedMs));
      const listed = await Promise.all(
        cluster.brokers.brokers.map((broker) => listedAt(probes, broker, topic, startedMs)),
      );
      await created;
      everywhereMs.push(Math.max(...listed));
    }
    const answered = durationsOf(answeredMs);
    report.notes.push(
      `CreateTopics answered (p50/p99/max): ${answered.p50Ms.toFixed(1)} / ${answered.p99Ms.toFixed(1)} / ` +
        `${answered.maxMs.toFixed(1)} ms; every broker is asked for Metadata every ${PROBE_INTERVAL_MS} ms ` +
        'on a connection of its own while the request runs.',
    );
    const row = {
      setup: cluster.name,
      measurement: PROPAGATION_MEASUREMENT,
      durations: durationsOf(everywhereMs),
    };
    report.setTarget(row, `p99 < ${PROPAGATION_P99_TARGET_MS} ms`, row.durations.p99Ms, {
      kind: 'at-most',
      threshold: PROPAGATION_P99_TARGET_MS,
      reference: 'target',
      referenceValue: PROPAGATION_P99_TARGET_MS,
    });
    return [row];
  });
}
