import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import type { BrokerCluster, ClusterBroker } from './broker-cluster';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';
import {
  anomalyCounts,
  finalRead,
  fullIsrOf,
  startReplicationWorkload,
  topicAssignments,
} from './replication-workload';
import type { ProcessExit } from './supervised-process';

const TIMEOUT_MS = 600_000;
const TOPIC = 'rolling';
const PARTITIONS = [0, 1, 2];

/** The controlled shutdown's summary line (cluster/controlled-shutdown.ts), as the broker logged it. */
interface ShutdownSummary {
  msg: string;
  moved: number;
  left: number;
  stayed: number;
}

const assignments = (cluster: BrokerCluster) => topicAssignments(cluster, TOPIC, PARTITIONS);
const fullIsr = (cluster: BrokerCluster, what: string) => fullIsrOf(cluster, TOPIC, PARTITIONS, what);

/**
 * SIGTERM, and how the process ended (SIGKILL if it had not exited within the fixture's bound)
 * with the summary line its controlled shutdown logged (undefined when it logged none).
 */
async function stopAndReadSummary(
  broker: ClusterBroker,
): Promise<{ exit: ProcessExit; summary: ShutdownSummary | undefined }> {
  let summary: ShutdownSummary | undefined;
  const unlisten = broker.process.onLine((line) => {
    if (!line.includes('controlled shutdown')) return;
    try {
      const parsed = JSON.parse(line) as ShutdownSummary;
      if (typeof parsed.moved === 'number') summary = parsed;
    } catch {
      // Not a JSON log line.
    }
  });
  try {
    const exit = await broker.process.stop();
    return { exit, summary };
  } finally {
    unlisten();
  }
}

describe('rolling restart', { timeout: TIMEOUT_MS }, () => {
  it('restarts the three brokers one at a time under load: leadership moves first, nothing is lost, clients see only retriable errors', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, [TOPIC], PARTITIONS.length);
    await fullIsr(cluster, 'a full ISR before the workload');
    const workload = await startReplicationWorkload(cluster, { topic: TOPIC, partitions: PARTITIONS });
    onTestFinished(() => workload.stop());
    await pollUntil(() => workload.acknowledged() >= 30, 'the first acknowledgements', { timeoutMs: 60_000 });
    const summaries: { broker: number; led: number; summary: ShutdownSummary | undefined }[] = [];
    for (const broker of cluster.brokers) {
      const before = await fullIsr(cluster, `a full ISR before broker ${broker.nodeId} stops`);
      const led = before.filter((a) => a.leader === broker.nodeId).length;
      const acknowledgedBefore = workload.acknowledged();
      const { exit, summary } = await stopAndReadSummary(broker);
      summaries.push({ broker: broker.nodeId, led, summary });
      // A leader that stopped without handing over first kept acks=all produces parked until the
      // drain bound, and was killed at the fixture's SIGKILL bound: an unclean stop.
      expect({ broker: broker.nodeId, exit }).toEqual({
        broker: broker.nodeId,
        exit: { code: 0, signal: null },
      });
      // It led nothing and was in no ISR once it was gone.
      const after = await assignments(cluster);
      expect(after.filter((a) => a.leader === broker.nodeId || a.isr.includes(broker.nodeId))).toEqual([]);
      await pollUntil(
        () => workload.acknowledged() >= acknowledgedBefore + 10,
        `acknowledgements while broker ${broker.nodeId} is down`,
        { timeoutMs: 60_000 },
      );
      broker.spawn();
      await broker.waitReady();
      await fullIsr(cluster, `a full ISR after broker ${broker.nodeId} restarted`);
    }
    await workload.stop();
    const report = await finalRead(cluster, TOPIC, PARTITIONS, workload.recorder);
    expect(anomalyCounts(report), JSON.stringify(report.anomalies.slice(0, 5))).toEqual({});
    // Every send was acknowledged in the end: the clients' retries covered every error they saw.
    expect(report.stats.sends).toMatchObject({ fail: 0, unknown: 0 });
    expect(report.stats.sends.ok).toBeGreaterThan(100);
    // Every broker handed over what it led and left the ISRs it followed in, before stopping.
    for (const { broker, led, summary } of summaries) {
      expect({ broker, summary }).toMatchObject({
        broker,
        summary: { msg: 'controlled shutdown complete', stayed: 0 },
      });
      // Its count includes the internal topics' partitions it led.
      expect(summary!.moved).toBeGreaterThanOrEqual(led);
      expect(summary!.moved + summary!.left).toBeGreaterThanOrEqual(PARTITIONS.length);
    }
  });
});
