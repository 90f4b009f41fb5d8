import {
  type Admin,
  CLUSTER_RESOURCE_NAME,
  ErrorCode,
  errorCodeInfo,
  type PartitionElectionResult,
} from '@weir/protocol';
import type {
  LeaderElectionInput,
  LeaderElectionPermission,
  LeaderElectionResult,
  PartitionElection,
} from '../api/schemas/leader-elections';
import { type AclPolicyView, withAcls } from './permissions/acl-policy';
import { ALLOWED } from './permissions/action-permission';

/*
 * Leader elections from the console (docs/architecture.md §6.6 "Elections on demand"), as `weir
 * partition elect-leaders` runs them: ElectLeaders as the logged-in user, so the broker's ACLs
 * decide (ALTER on the cluster), then the metadata for each answered partition's leader, since the
 * broker's answer names none.
 */

/** What an election reads and calls. */
export type LeaderElectionSources = Pick<Admin, 'electLeaders' | 'listTopics' | 'describeTopics'>;

/**
 * How long the broker may take for the elections and for its view to show the new leaders: the
 * writes are quick, but a partition whose write races the controller's is decided once more.
 */
const ELECTION_TIMEOUT_MS = 30_000;

/** Whether the user may elect leaders, for the UI to offer the buttons (the broker decides anyway). */
export function leaderElectionPermission(acl: AclPolicyView | null | undefined): LeaderElectionPermission {
  return { allowedActions: { elect: withAcls(ALLOWED, acl, [['ALTER', 'CLUSTER', CLUSTER_RESOURCE_NAME]]) } };
}

/** Runs the election and answers per partition with the outcome in words and the leader after it. */
export async function electLeaders(
  admin: LeaderElectionSources,
  input: LeaderElectionInput,
  now: () => number,
): Promise<LeaderElectionResult> {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of input.partitions ?? []) {
    const numbers = byTopic.get(topic) ?? [];
    // A partition named twice is asked once: the broker would answer it twice otherwise.
    if (!numbers.includes(partition)) numbers.push(partition);
    byTopic.set(topic, numbers);
  }
  const everyPartition = input.partitions === undefined;
  const answers = await admin.electLeaders({
    electionType: input.type,
    ...(everyPartition
      ? {}
      : { partitions: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })) }),
    timeoutMs: ELECTION_TIMEOUT_MS,
  });
  const { leaders, partitionCount } = await readLeaders(admin, answers, everyPartition);
  const results = answers.map((answer) => describeOutcome(answer, leaders));
  const elected = results.filter((row) => row.result === 'elected').length;
  const failed = results.filter((row) => row.result === 'failed').length;
  // Without named partitions the broker leaves out those that needed no election: the rest of the cluster.
  const notNeeded = everyPartition
    ? Math.max(0, partitionCount - elected - failed)
    : results.filter((row) => row.result === 'not-needed').length;
  return { asOfMs: now(), type: input.type, everyPartition, results, elected, notNeeded, failed };
}

function describeOutcome(
  answer: PartitionElectionResult,
  leaders: ReadonlyMap<string, number>,
): PartitionElection {
  const info = errorCodeInfo(answer.errorCode);
  const result =
    answer.errorCode === ErrorCode.NONE
      ? 'elected'
      : answer.errorCode === ErrorCode.ELECTION_NOT_NEEDED
        ? 'not-needed'
        : 'failed';
  const leader = leaders.get(keyOf(answer.topic, answer.partition));
  return {
    topic: answer.topic,
    partition: answer.partition,
    result,
    errorCode: info?.name ?? `error ${answer.errorCode}`,
    message: result === 'elected' ? null : (answer.errorMessage ?? info?.message ?? null),
    newLeader: leader === undefined || leader < 0 ? null : leader,
  };
}

/**
 * The leaders of the answered partitions as the metadata shows them after the election (the broker
 * waits until its own view shows them), and, for a whole-cluster election, how many partitions
 * there are. A topic deleted meanwhile is simply absent.
 */
async function readLeaders(
  admin: LeaderElectionSources,
  answers: readonly PartitionElectionResult[],
  everyPartition: boolean,
): Promise<{ leaders: Map<string, number>; partitionCount: number }> {
  const existing = await admin.listTopics({ includeInternal: true });
  const answered = new Set(answers.map((answer) => answer.topic));
  const names = everyPartition ? existing : existing.filter((name) => answered.has(name));
  const described = names.length === 0 ? [] : await admin.describeTopics(names);
  const leaders = new Map<string, number>();
  let partitionCount = 0;
  for (const topic of described) {
    for (const partition of topic.partitions) {
      partitionCount += 1;
      leaders.set(keyOf(topic.name, partition.partition), partition.leaderId);
    }
  }
  return { leaders, partitionCount };
}

function keyOf(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}
