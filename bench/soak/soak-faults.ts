import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerCluster, ClusterBroker } from '../../apps/broker/test/cluster/broker-cluster';
import { type StoredAssignment, storedAssignment } from '../../apps/broker/test/cluster/cluster-clients';
import type { ReplicationWorkload } from '../../apps/broker/test/cluster/replication-workload';
import { pollUntil } from '../../apps/broker/test/group-fixtures';
import type { FaultKind } from './fault-kinds';

// The faults the cluster soak mixes (fault-kinds.ts), each one round: inject, wait until the
// workload is acknowledged again, heal. The same faults as the replication fault tests
// (apps/broker/test/cluster/replication-faults.test.ts), on the fixtures' nemesis.

/** What a fault acts on. */
export interface FaultContext {
  cluster: BrokerCluster;
  workload: ReplicationWorkload;
  topic: string;
  /** The partition whose leader or follower is the victim this round. */
  partition: number;
  /** The broker the cluster's Metadata names as controller now. */
  controllerId(): Promise<number>;
  /** The session TTL of the brokers, so pauses and cuts outlast it. */
  sessionTtlSeconds: number;
}

/** What one round did: its victim, and how long the workload went without 10 new acknowledgements. */
export interface FaultOutcome {
  victim: number;
  /** From the fault (or, for a short cut, its heal) to 10 more acknowledged records. */
  recoveredMs: number;
}

/** How many new acknowledgements count as "the workload goes on". */
const ACKS_TO_RECOVER = 10;
const WAIT_MS = 120_000;
/** A cut from the other brokers lasts this long: shorter than replica.lag.time.max.ms, so no ISR change. */
const BROKER_CUT_MS = 4000;

function stored(context: FaultContext): Promise<StoredAssignment> {
  return storedAssignment(context.cluster, context.topic, context.partition);
}

/** The partition's leader in etcd, once it has one whose broker runs. */
async function leaderOf(context: FaultContext): Promise<ClusterBroker> {
  const assignment = await pollUntil(
    async () => {
      const now = await stored(context).catch(() => undefined);
      return now !== undefined && now.leader > 0 ? now : undefined;
    },
    `a leader of ${context.topic}-${context.partition}`,
    { timeoutMs: WAIT_MS, intervalMs: 100 },
  );
  return context.cluster.broker(assignment.leader);
}

async function newLeaderThan(context: FaultContext, victim: ClusterBroker): Promise<void> {
  await pollUntil(
    async () => {
      const now = await stored(context).catch(() => undefined);
      return now !== undefined && now.leader > 0 && now.leader !== victim.nodeId;
    },
    `a leader of ${context.topic}-${context.partition} other than broker ${victim.nodeId}`,
    { timeoutMs: WAIT_MS, intervalMs: 100 },
  );
}

/** Milliseconds from `sinceMs` until the workload has ACKS_TO_RECOVER more acknowledgements than at the call. */
async function recovery(context: FaultContext, sinceMs: number): Promise<number> {
  const target = context.workload.acknowledged() + ACKS_TO_RECOVER;
  await pollUntil(() => context.workload.acknowledged() >= target, 'acknowledgements after the fault', {
    timeoutMs: WAIT_MS,
    intervalMs: 20,
  });
  return performance.now() - sinceMs;
}

async function restartKilled(victim: ClusterBroker): Promise<void> {
  victim.spawn();
  await victim.waitReady();
}

type Fault = (context: FaultContext) => Promise<FaultOutcome>;

/** Every kind's round; each leaves every broker running and every cut healed. */
export const FAULTS: Readonly<Record<FaultKind, Fault>> = {
  'kill-leader': async (context) => {
    const victim = await leaderOf(context);
    const startMs = performance.now();
    await victim.kill9();
    await newLeaderThan(context, victim);
    const recoveredMs = await recovery(context, startMs);
    await restartKilled(victim);
    return { victim: victim.nodeId, recoveredMs };
  },
  'kill-follower': async (context) => {
    const assignment = await stored(context);
    const followerId = assignment.replicas.find((id) => id !== assignment.leader);
    if (followerId === undefined) throw new Error(`${context.topic}-${context.partition} has no follower`);
    const victim = context.cluster.broker(followerId);
    const startMs = performance.now();
    await victim.kill9();
    const recoveredMs = await recovery(context, startMs);
    await restartKilled(victim);
    return { victim: victim.nodeId, recoveredMs };
  },
  'kill-controller': async (context) => {
    const victim = context.cluster.broker(await context.controllerId());
    const startMs = performance.now();
    await victim.kill9();
    const recoveredMs = await recovery(context, startMs);
    await restartKilled(victim);
    return { victim: victim.nodeId, recoveredMs };
  },
  'pause-leader': async (context) => {
    // SIGSTOP past the session TTL: the controller replaces it, and on SIGCONT it must find
    // itself fenced rather than acknowledge anything (the checker would see a lost write).
    const victim = await leaderOf(context);
    const startMs = performance.now();
    victim.pause();
    try {
      await newLeaderThan(context, victim);
      return { victim: victim.nodeId, recoveredMs: await recovery(context, startMs) };
    } finally {
      victim.resume();
    }
  },
  'isolate-leader-from-brokers': async (context) => {
    const victim = await leaderOf(context);
    context.cluster.isolateFromBrokers(victim);
    try {
      await sleep(BROKER_CUT_MS);
    } finally {
      context.cluster.healAll();
    }
    return { victim: victim.nodeId, recoveredMs: await recovery(context, performance.now()) };
  },
  'isolate-leader-from-etcd': async (context) => {
    // Longer than the session TTL, so its lease expires and another replica takes over while it
    // still has its clients.
    const victim = await leaderOf(context);
    const startMs = performance.now();
    context.cluster.isolateFromEtcd(victim);
    try {
      await sleep((context.sessionTtlSeconds + 2) * 1000);
    } finally {
      context.cluster.healAll();
    }
    return { victim: victim.nodeId, recoveredMs: await recovery(context, startMs) };
  },
  'graceful-restart': async (context) => {
    // SIGTERM on the leader: controlled shutdown hands its partitions over before it stops.
    const victim = await leaderOf(context);
    const startMs = performance.now();
    await victim.stop();
    const recoveredMs = await recovery(context, startMs);
    await restartKilled(victim);
    return { victim: victim.nodeId, recoveredMs };
  },
};
