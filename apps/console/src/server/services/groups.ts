import type {
  Admin,
  GroupLagSummary,
  InternalAdminApi,
  OffsetResetTarget,
  PlannedOffset,
} from '@weir/protocol';
import { ErrorCode, WeirError } from '@weir/protocol';
import type {
  GroupDetail,
  GroupList,
  GroupListInput,
  GroupRow,
  ResetOffsetsInput,
  ResetOffsetsResult,
} from '../api/schemas/groups';
import type { AclPolicyView } from './permissions/acl-policy';
import { groupAllowedActions, requireGroupAction } from './permissions/group-permissions';

function toGroupRow(group: GroupLagSummary): GroupRow {
  return {
    groupId: group.groupId,
    state: group.state,
    protocolType: group.protocolType,
    protocol: group.protocol,
    memberCount: group.memberCount,
    totalLag: group.totalLag.toString(),
    topics: [...new Set(group.partitions.map((partition) => partition.topic))].sort(),
  };
}

function compareGroups(
  sortBy: GroupListInput['sortBy'],
): (left: GroupLagSummary, right: GroupLagSummary) => number {
  const byName = (left: GroupLagSummary, right: GroupLagSummary) =>
    left.groupId < right.groupId ? -1 : left.groupId > right.groupId ? 1 : 0;
  const key: Record<GroupListInput['sortBy'], (left: GroupLagSummary, right: GroupLagSummary) => number> = {
    name: () => 0,
    state: (left, right) => left.state.localeCompare(right.state),
    lag: (left, right) => (left.totalLag < right.totalLag ? -1 : left.totalLag > right.totalLag ? 1 : 0),
    members: (left, right) => left.memberCount - right.memberCount,
  };
  // Ties are broken by group id so that paging is stable.
  return (left, right) => key[sortBy](left, right) || byName(left, right);
}

/** Groups with lag, searched, sorted and paged here: the broker computes lag for all in one pass. */
export async function listGroups(
  internal: Pick<InternalAdminApi, 'describeGroupLags'>,
  input: GroupListInput,
  now: () => number,
): Promise<GroupList> {
  const groups = await internal.describeGroupLags(null);
  const asOfMs = now();
  const stateCounts: Record<string, number> = {};
  for (const group of groups) stateCounts[group.state] = (stateCounts[group.state] ?? 0) + 1;
  const search = input.search?.toLowerCase();
  const matching = groups
    .filter((group) => search === undefined || group.groupId.toLowerCase().includes(search))
    .filter((group) => input.state === undefined || group.state === input.state)
    .sort(compareGroups(input.sortBy));
  if (input.descending) matching.reverse();
  return {
    asOfMs,
    totalCount: matching.length,
    stateCounts,
    groups: matching.slice(input.offset, input.offset + input.limit).map(toGroupRow),
  };
}

/**
 * A member's share of the group's lag: the sum of the broker's lag rows over its assigned
 * partitions. An assigned partition without a row (the broker reports none for it) adds nothing.
 */
function memberLag(
  assignment: readonly { topic: string; partitions: readonly number[] }[],
  lagByPartition: ReadonlyMap<string, bigint>,
): bigint {
  let total = 0n;
  for (const entry of assignment) {
    for (const partition of entry.partitions)
      total += lagByPartition.get(`${entry.topic}:${partition}`) ?? 0n;
  }
  return total;
}

/**
 * The last stable offset of each partition of `topics`, keyed `topic:partition`. A topic that
 * cannot be read (deleted since the commit) is left out; its rows show no LSO.
 */
async function lastStableOffsets(
  internal: Pick<InternalAdminApi, 'describePartitions'>,
  topics: readonly string[],
): Promise<Map<string, bigint>> {
  const answers = await Promise.allSettled(topics.map((topic) => internal.describePartitions(topic)));
  const offsets = new Map<string, bigint>();
  answers.forEach((answer, index) => {
    if (answer.status !== 'fulfilled') return;
    // A partition without a reachable leader (offline, on a cluster) shows no LSO.
    for (const partition of answer.value)
      if (partition.lastStableOffset >= 0n)
        offsets.set(`${topics[index]}:${partition.partition}`, partition.lastStableOffset);
  });
  return offsets;
}

export async function describeGroup(
  admin: Pick<Admin, 'describeGroups'>,
  internal: Pick<InternalAdminApi, 'describeGroupLags' | 'describePartitions'>,
  groupId: string,
  now: () => number,
  acl?: AclPolicyView | null,
): Promise<GroupDetail> {
  const [[description], lags] = await Promise.all([
    admin.describeGroups([groupId]),
    internal.describeGroupLags([groupId]),
  ]);
  const lag = lags.find((candidate) => candidate.groupId === groupId);
  // Kafka describes an unknown group as Dead with no members instead of failing.
  if (description === undefined || (description.state === 'Dead' && lag === undefined)) {
    throw new WeirError(ErrorCode.GROUP_ID_NOT_FOUND, { detail: `Group "${groupId}".` });
  }
  const stableOffsets = await lastStableOffsets(internal, lag === undefined ? [] : toGroupRow(lag).topics);
  const lagByPartition = new Map(
    (lag?.partitions ?? []).map((row) => [`${row.topic}:${row.partition}`, row.lag] as const),
  );
  const members = description.members.map((member) => ({
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId,
    clientId: member.clientId,
    clientHost: member.clientHost,
    topics: member.topics === null ? null : [...member.topics],
    assignment:
      member.assignment === null
        ? null
        : member.assignment.map((entry) => ({ topic: entry.topic, partitions: [...entry.partitions] })),
    lag: member.assignment === null ? null : memberLag(member.assignment, lagByPartition).toString(),
  }));
  return {
    asOfMs: now(),
    groupId,
    state: description.state,
    protocolType: description.protocolType,
    protocol: description.protocol,
    memberCount: description.members.length,
    totalLag: (lag?.totalLag ?? 0n).toString(),
    topics: lag === undefined ? [] : toGroupRow(lag).topics,
    members,
    partitions: (lag?.partitions ?? []).map((partition) => ({
      topic: partition.topic,
      partition: partition.partition,
      committedOffset: partition.committedOffset < 0n ? null : partition.committedOffset.toString(),
      logEndOffset: partition.logEndOffset < 0n ? null : partition.logEndOffset.toString(),
      lastStableOffset: stableOffsets.get(`${partition.topic}:${partition.partition}`)?.toString() ?? null,
      lag: partition.lag.toString(),
      memberId: partition.memberId,
    })),
    allowedActions: groupAllowedActions({ groupId, memberCount: description.members.length }, acl),
  };
}

function resetTargetOf(input: ResetOffsetsInput): OffsetResetTarget {
  switch (input.target) {
    case 'earliest':
    case 'latest':
      return input.target;
    case 'timestamp':
      return { timestampMs: input.timestampMs! };
    case 'offset':
      return { offset: BigInt(input.offset!) };
    case 'shiftBy':
      return { shiftBy: BigInt(input.shiftBy!) };
  }
}

/**
 * Plans (dry run) or applies an offset reset. A group with members is refused (NON_EMPTY_GROUP, see
 * group-permissions.ts) in both cases: a preview of a change that cannot be applied would only
 * mislead.
 */
export async function resetGroupOffsets(
  admin: Pick<Admin, 'describeGroups' | 'resetOffsets'>,
  input: ResetOffsetsInput,
  now: () => number,
): Promise<ResetOffsetsResult> {
  const [group] = await admin.describeGroups([input.groupId]);
  requireGroupAction({ groupId: input.groupId, memberCount: group?.members.length ?? 0 }, 'resetOffsets');
  const plan = await admin.resetOffsets(input.groupId, resetTargetOf(input), {
    dryRun: input.dryRun,
    ...(input.topics === undefined ? {} : { topics: input.topics }),
  });
  return {
    asOfMs: now(),
    groupId: input.groupId,
    dryRun: input.dryRun,
    plan: plan.map((line) => ({
      topic: line.topic,
      partition: line.partition,
      currentOffset: line.currentOffset === null ? null : line.currentOffset.toString(),
      newOffset: line.newOffset.toString(),
      requestedOffset: line.requestedOffset.toString(),
      clamped: line.clamped,
    })),
    warnings: plan.flatMap((line) => (line.clamped === null ? [] : [clampWarning(line, input.dryRun)])),
  };
}

/**
 * Why a line's new offset is not the one asked for. A reset past the end is kept at the end (and
 * before the start at the start), as Kafka's consumer-groups tool does; an operator who typed the
 * offset must not find out from the lag later.
 */
function clampWarning(line: PlannedOffset, dryRun: boolean): string {
  const bound = line.clamped === 'log-end' ? 'past the log end' : 'before the log start';
  const verb = dryRun ? 'would be' : 'was';
  return `${line.topic}-${line.partition}: offset ${line.requestedOffset} is ${bound}, so ${verb} set to ${line.newOffset}`;
}

/** Deletes a group the policy lets go (an empty one); the broker would refuse the rest as well. */
export async function deleteGroup(
  admin: Pick<Admin, 'describeGroups' | 'deleteGroups'>,
  groupId: string,
): Promise<void> {
  const [group] = await admin.describeGroups([groupId]);
  requireGroupAction({ groupId, memberCount: group?.members.length ?? 0 }, 'delete');
  await admin.deleteGroups([groupId]);
}
