import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Admin, Client } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { BrokerCluster } from '../../apps/broker/test/cluster/broker-cluster';
import { storedAssignment } from '../../apps/broker/test/cluster/cluster-clients';
import type { HistoryOperation } from '../../apps/broker/test/cluster/history-checker';
import {
  createReplicatedTopics,
  startReplicatedCluster,
} from '../../apps/broker/test/cluster/replicated-cluster';
import { finalRead, startReplicationWorkload } from '../../apps/broker/test/cluster/replication-workload';
import { pollUntil } from '../../apps/broker/test/group-fixtures';
import { type Column, formatTable } from '../harness/table';
import type { FaultKind } from './fault-kinds';
import { type SoakConfig, soakConfig } from './soak-config';
import { FAULTS } from './soak-faults';

/**
 * `npm run soak:cluster` (issue 17, "A longer run"; by hand, not in CI): three brokers on one etcd
 * member with the replication fault tests' fixtures (per-broker loopback addresses and etcd
 * proxies, so links can be cut), a topic of 3 partitions at RF 3 with min.insync.replicas 2, and
 * the fault tests' workload (idempotent kafkajs and kcat producers, acks=all) on every partition
 * throughout. Each round injects one fault, waits until the workload is acknowledged again,
 * heals, and waits until every partition has its whole ISR back. Then the workload stops, kcat
 * reads everything and the history checker prints its counts, with per-fault-kind stats; the test
 * fails when any count is not zero or a round failed. It runs in Vitest (vitest.config.ts here, not
 * part of `npm test`) because the fixtures import kafkajs the way Vitest resolves it; run-soak.ts
 * starts it with the settings of soak-config.ts.
 */

const TOPIC = 'soak';
const PARTITIONS = [0, 1, 2];
const SESSION_TTL_SECONDS = 3;
const TIMINGS = {
  cluster: { sessionTtlSeconds: SESSION_TTL_SECONDS, controllerTtlSeconds: 3 },
  // Lower than Kafka's 30 s, as in the tests, so a follower cut off leaves the ISR within a round.
  replication: { replicaLagTimeMaxMs: 10_000 },
  logging: { level: 'warn' as const },
};
const HEAL_TIMEOUT_MS = 180_000;

function log(message: string): void {
  process.stderr.write(`[soak:cluster ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Per fault kind: rounds, rounds that failed, the workload's sends during its rounds, recovery times. */
interface KindStats {
  rounds: number;
  failed: number;
  sendsOk: number;
  sendsNotOk: number;
  recoveredMs: number[];
}

/** Every broker running and ready, every partition led with all its replicas in the ISR. */
async function healed(cluster: BrokerCluster): Promise<void> {
  for (const broker of cluster.brokers) if (!broker.isRunning) broker.spawn();
  await cluster.waitAllReady(HEAL_TIMEOUT_MS);
  await pollUntil(
    async () => {
      for (const partition of PARTITIONS) {
        const stored = await storedAssignment(cluster, TOPIC, partition).catch(() => undefined);
        if (stored === undefined || stored.leader < 0 || stored.isr.length !== stored.replicas.length)
          return false;
      }
      return true;
    },
    `every partition of ${TOPIC} back to its whole ISR`,
    { timeoutMs: HEAL_TIMEOUT_MS, intervalMs: 200 },
  );
}

function sendCounts(operations: readonly HistoryOperation[]): { ok: number; notOk: number } {
  let ok = 0;
  let notOk = 0;
  for (const operation of operations) {
    if (operation.type !== 'send') continue;
    if (operation.status === 'ok') ok++;
    else notOk++;
  }
  return { ok, notOk };
}

const percentile = (samples: readonly number[], p: number): number => {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const seconds = (ms: number) => (Number.isNaN(ms) ? '' : (ms / 1000).toFixed(2));

function printKindStats(stats: ReadonlyMap<FaultKind, KindStats>): void {
  const columns: Column[] = [
    { title: 'fault' },
    { title: 'rounds', alignRight: true },
    { title: 'failed', alignRight: true },
    { title: 'sends ok', alignRight: true },
    { title: 'sends not ok', alignRight: true },
    { title: 'recovery p50 s', alignRight: true },
    { title: 'recovery max s', alignRight: true },
  ];
  const rows = [...stats].map(([kind, each]) => [
    kind,
    String(each.rounds),
    String(each.failed),
    String(each.sendsOk),
    String(each.sendsNotOk),
    seconds(percentile(each.recoveredMs, 50)),
    seconds(percentile(each.recoveredMs, 100)),
  ]);
  console.log(formatTable(columns, rows));
}

/** What the soak found: the checker's counts that are not zero, and the rounds that failed. */
interface SoakResult {
  anomalies: Record<string, number>;
  failedRounds: number;
}

async function soak(cluster: BrokerCluster, config: SoakConfig): Promise<SoakResult> {
  const slotMs = (config.minutes * 60_000) / config.rounds;
  log(
    `${config.rounds} rounds over about ${config.minutes} min (${(slotMs / 1000).toFixed(1)} s a round), ` +
      `faults: ${config.faults.join(', ')}`,
  );
  await createReplicatedTopics(cluster, [TOPIC], PARTITIONS.length);
  await healed(cluster);
  const workload = await startReplicationWorkload(cluster, { topic: TOPIC, partitions: PARTITIONS });
  const metadataClient = new Client({ bootstrapServers: cluster.bootstrapServers });
  const admin = new Admin(metadataClient);
  const stats = new Map<FaultKind, KindStats>(
    config.faults.map((kind) => [kind, { rounds: 0, failed: 0, sendsOk: 0, sendsNotOk: 0, recoveredMs: [] }]),
  );
  const startedMs = performance.now();
  let completed = 0;
  try {
    for (let round = 0; round < config.rounds; round++) {
      const kind = config.faults[round % config.faults.length]!;
      const partition = PARTITIONS[Math.floor(round / config.faults.length) % PARTITIONS.length]!;
      const kindStats = stats.get(kind)!;
      const operationsBefore = workload.recorder.operations.length;
      kindStats.rounds++;
      try {
        const outcome = await FAULTS[kind]({
          cluster,
          workload,
          topic: TOPIC,
          partition,
          controllerId: async () => (await admin.describeCluster()).controllerId,
          sessionTtlSeconds: SESSION_TTL_SECONDS,
        });
        kindStats.recoveredMs.push(outcome.recoveredMs);
        log(
          `round ${round + 1}/${config.rounds}: ${kind} of broker ${outcome.victim} (${TOPIC}-${partition}), ` +
            `acknowledged again after ${seconds(outcome.recoveredMs)} s`,
        );
      } catch (error) {
        kindStats.failed++;
        log(`round ${round + 1}/${config.rounds}: ${kind} FAILED: ${String(error).split('\n')[0]}`);
        cluster.healAll();
        for (const broker of cluster.brokers) if (broker.isRunning) broker.resume();
      }
      await healed(cluster);
      const sends = sendCounts(workload.recorder.operations.slice(operationsBefore));
      kindStats.sendsOk += sends.ok;
      kindStats.sendsNotOk += sends.notOk;
      completed++;
      const slotEndMs = startedMs + (round + 1) * slotMs;
      while (performance.now() < slotEndMs) await sleep(Math.min(1000, slotEndMs - performance.now()));
    }
  } finally {
    await metadataClient.close();
    await workload.stop();
  }
  log(`${completed} rounds in ${((performance.now() - startedMs) / 60_000).toFixed(1)} min; final read`);
  const report = await finalRead(cluster, TOPIC, PARTITIONS, workload.recorder);
  console.log(
    `Cluster soak: ${completed} rounds of ${config.faults.join(', ')}; topic ${TOPIC}, 3 partitions, RF 3, min.insync.replicas 2.`,
  );
  console.log(`Checker counts: ${JSON.stringify(report.counts)}`);
  console.log(
    `Sends: ${JSON.stringify(report.stats.sends)}; values read ${report.stats.valuesRead}, records read ${report.stats.polledRecords}.`,
  );
  printKindStats(stats);
  for (const anomaly of report.anomalies.slice(0, 20)) console.log(`  ${anomaly.kind}: ${anomaly.detail}`);
  const failedRounds = [...stats.values()].reduce((total, each) => total + each.failed, 0);
  const anomalies = Object.fromEntries(Object.entries(report.counts).filter(([, count]) => count > 0));
  const clean = Object.keys(anomalies).length === 0 && failedRounds === 0;
  console.log(clean ? 'All counts zero, every round healed.' : `NOT CLEAN: ${failedRounds} failed rounds.`);
  return { anomalies, failedRounds };
}

async function run(config: SoakConfig): Promise<SoakResult> {
  const cluster = await startReplicatedCluster({ hosts: 'per-broker', etcdProxies: true, config: TIMINGS });
  return soak(cluster, config);
}

const config = soakConfig([]);
// The rounds' share of the duration, plus each round's bounded waits (a fault, a heal), plus the
// final read: only there so a stuck soak ends by itself.
const SOAK_TIMEOUT_MS = config.minutes * 60_000 + config.rounds * 2 * HEAL_TIMEOUT_MS + 10 * 60_000;

describe('cluster soak', () => {
  it('loses, duplicates and reorders nothing acknowledged over rounds of mixed faults', {
    timeout: SOAK_TIMEOUT_MS,
  }, async () => {
    const result = await run(config);
    expect(result.anomalies).toEqual({});
    expect(result.failedRounds).toBe(0);
  });
});
