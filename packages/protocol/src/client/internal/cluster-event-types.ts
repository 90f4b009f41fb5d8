/** What happened, as the brokers' replication timeline names it (docs/architecture.md §6). */
export type ClusterEventKind =
  | 'leader-change'
  | 'partition-offline'
  | 'isr-shrink'
  | 'isr-expand'
  | 'reassignment-started'
  | 'reassignment-completed'
  | 'reassignment-cancelled'
  | 'broker-session-started'
  | 'broker-session-ended';

/** One event of the timeline; fields the event has no value for are absent. */
export interface ClusterEvent {
  /** Sorts by time as a string: the zero-padded `atMs` comes first. */
  id: string;
  atMs: number;
  kind: ClusterEventKind;
  topic?: string;
  partition?: number;
  brokerId?: number;
  leader?: number;
  previousLeader?: number;
  leaderEpoch?: number;
  isr?: readonly number[];
  previousIsr?: readonly number[];
  /** Why the change was made, as its writer said (`leader-not-live`, `controlled-shutdown`, …). */
  cause?: string;
  sessionId?: string;
  detail?: string;
}

/** Which events to list, newest first; `brokerId` matches events naming the broker in any role. */
export interface ClusterEventQuery {
  sinceMs?: number;
  untilMs?: number;
  topic?: string;
  partition?: number;
  brokerId?: number;
  /** 1..5000. */
  limit: number;
}
