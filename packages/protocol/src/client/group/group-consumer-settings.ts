import type { Assignor } from './assignor';
import type { GroupConsumerOptions, RebalanceListeners } from './group-consumer-options';
import { positive } from './group-consumer-support';
import { rangeAssignor } from './range-assignor';

/** A group consumer's options, checked and with their defaults filled in. */
export interface GroupConsumerSettings {
  readonly groupId: string;
  /** Static membership's instance id, or null for a dynamic member. */
  readonly groupInstanceId: string | null;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly assignors: readonly Assignor[];
  /** Whether every assignor rebalances cooperatively (KIP-429), as the Java client decides it. */
  readonly cooperative: boolean;
  readonly autoCommit: boolean;
  readonly autoCommitIntervalMs: number;
  readonly autoOffsetReset: 'earliest' | 'latest' | 'none';
  readonly listeners: RebalanceListeners;
}

/** Checks a group consumer's options and fills in the defaults; throws a RangeError for the first bad one. */
export function groupConsumerSettings(options: GroupConsumerOptions): GroupConsumerSettings {
  if (typeof options.groupId !== 'string' || options.groupId.length === 0)
    throw new RangeError('groupId must be a non-empty string');
  if (options.groupInstanceId !== undefined && options.groupInstanceId.length === 0)
    throw new RangeError('groupInstanceId must be a non-empty string when given');
  const sessionTimeoutMs = positive('sessionTimeoutMs', options.sessionTimeoutMs ?? 10_000);
  const rebalanceTimeoutMs = positive('rebalanceTimeoutMs', options.rebalanceTimeoutMs ?? 60_000);
  const heartbeatIntervalMs = positive('heartbeatIntervalMs', options.heartbeatIntervalMs ?? 3000);
  const assignors = options.assignors ?? [rangeAssignor];
  if (assignors.length === 0) throw new RangeError('assignors is empty');
  return {
    groupId: options.groupId,
    groupInstanceId: options.groupInstanceId ?? null,
    sessionTimeoutMs,
    rebalanceTimeoutMs,
    heartbeatIntervalMs,
    assignors,
    cooperative: assignors.every((assignor) => assignor.rebalanceProtocol === 'cooperative'),
    autoCommit: options.autoCommit ?? true,
    autoCommitIntervalMs: positive('autoCommitIntervalMs', options.autoCommitIntervalMs ?? 5000),
    autoOffsetReset: options.autoOffsetReset ?? 'latest',
    listeners: { onRevoked: options.onRevoked, onAssigned: options.onAssigned },
  };
}
