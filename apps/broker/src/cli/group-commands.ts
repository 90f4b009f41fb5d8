import type { Writable } from 'node:stream';
import { type Admin, ErrorCode, type InternalAdmin, type OffsetResetTarget, WeirError } from '@weir/protocol';
import { formatTable } from './table';

interface Out {
  stdout: Writable;
}

/** `weir group list`: every group with its state and member count, sorted by id. */
export async function groupListCommand(admin: Admin, out: Out): Promise<undefined> {
  const listed = await admin.listGroups();
  const described =
    listed.length === 0 ? [] : await admin.describeGroups(listed.map((group) => group.groupId));
  const rows = described.map((group) => [
    group.groupId,
    group.state,
    group.protocolType,
    String(group.members.length),
  ]);
  out.stdout.write(formatTable(['GROUP', 'STATE', 'PROTOCOL-TYPE', 'MEMBERS'], rows));
}

/** `weir group describe <g>`: state, assignor and each member's client and partitions. */
export async function groupDescribeCommand(
  admin: Admin,
  options: { groupId: string },
  out: Out,
): Promise<undefined> {
  const [group] = await admin.describeGroups([options.groupId]);
  const { groupId, state, protocol, members } = group!;
  out.stdout.write(
    `Group: ${groupId}  State: ${state}  Assignor: ${protocol || '-'}  Members: ${members.length}\n`,
  );
  const rows = members.map((member) => [
    member.memberId,
    member.clientId,
    member.clientHost,
    member.assignment === null
      ? '?'
      : member.assignment.map((entry) => `${entry.topic}:${entry.partitions.join(',')}`).join(' ') || '-',
  ]);
  out.stdout.write(formatTable(['MEMBER-ID', 'CLIENT-ID', 'HOST', 'ASSIGNMENT'], rows));
}

/**
 * `weir group lag <g>`: committed offset, log end (the high watermark, as Kafka's tool shows it)
 * and lag per partition, and the total, as the broker computes lag for the console and the
 * metrics too (WeirDescribeGroupLags; transaction-aware). A partition assigned but not committed
 * shows `-` as its committed offset.
 */
export async function groupLagCommand(
  internal: InternalAdmin,
  options: { groupId: string },
  out: Out,
): Promise<undefined> {
  const [group] = await internal.describeGroupLags([options.groupId]);
  if (group === undefined) {
    throw new WeirError(ErrorCode.GROUP_ID_NOT_FOUND, {
      detail: `group "${options.groupId}" does not exist`,
    });
  }
  const rows = group.partitions.map((entry) => [
    entry.topic,
    String(entry.partition),
    entry.committedOffset < 0n ? '-' : String(entry.committedOffset),
    String(entry.logEndOffset),
    String(entry.lag),
  ]);
  out.stdout.write(formatTable(['TOPIC', 'PARTITION', 'COMMITTED', 'LOG-END', 'LAG'], rows));
  out.stdout.write(`Total lag: ${group.totalLag}\n`);
}

/**
 * `weir group reset-offsets <g>`: prints the plan; changes the offsets only with `--execute`
 * (the broker refuses unless the group has no members).
 */
export async function groupResetOffsetsCommand(
  admin: Admin,
  options: { groupId: string; target: OffsetResetTarget; topic?: string; execute: boolean },
  out: Out & { stderr: Writable },
): Promise<undefined> {
  const plan = await admin.resetOffsets(options.groupId, options.target, {
    dryRun: !options.execute,
    ...(options.topic === undefined ? {} : { topics: [options.topic] }),
  });
  const rows = plan.map((entry) => [
    entry.topic,
    String(entry.partition),
    entry.currentOffset === null ? '-' : String(entry.currentOffset),
    String(entry.newOffset),
  ]);
  out.stdout.write(formatTable(['TOPIC', 'PARTITION', 'CURRENT', 'NEW'], rows));
  // A target outside a partition's log is kept at its bound; Kafka's tool warns the same way.
  for (const entry of plan) {
    if (entry.clamped === null) continue;
    const bound = entry.clamped === 'log-end' ? 'past the log end' : 'before the log start';
    out.stderr.write(
      `warning: ${entry.topic}-${entry.partition}: offset ${entry.requestedOffset} is ${bound}; using ${entry.newOffset}\n`,
    );
  }
  out.stdout.write(
    options.execute
      ? `Reset ${plan.length} partition(s) of group "${options.groupId}".\n`
      : 'Dry run: nothing changed. Add --execute to apply.\n',
  );
}

/** `weir group delete <g>`: removes an empty group and its committed offsets. */
export async function groupDeleteCommand(
  admin: Admin,
  options: { groupId: string },
  out: Out,
): Promise<undefined> {
  await admin.deleteGroups([options.groupId]);
  out.stdout.write(`Deleted group "${options.groupId}".\n`);
}
