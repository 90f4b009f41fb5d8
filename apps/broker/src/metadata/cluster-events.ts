import type { ClusterEvent, ClusterEventKind, ClusterEventQuery } from '@weir/protocol';
import type { AssignmentChangeCause } from './assignment-change';
import type { NewPartitionAssignment, PartitionAssignment } from './metadata-store';

/*
 * The event types are the SDK's (packages/protocol), so what the store writes is what
 * WeirListClusterEvents answers, field for field. The store writes an event with the change it
 * describes (in the same etcd transaction), so an event exists exactly when its change committed.
 */
export type { ClusterEvent, ClusterEventKind, ClusterEventQuery };

/**
 * A query of the stored timeline: the SDK's, and for the broker's own readers (the controller's
 * session bookkeeping) the kinds to keep, so a long history of other events cannot push the ones
 * it needs out of its page.
 */
export interface StoredEventQuery extends ClusterEventQuery {
  kinds?: readonly ClusterEventKind[];
}

/** An event before the store has given it its id. */
export type NewClusterEvent = Omit<ClusterEvent, 'id'>;

/** How long and how many events the controller keeps (`cluster.eventsRetentionMs`, `cluster.eventsMaxCount`). */
export interface ClusterEventRetention {
  retentionMs: number;
  maxCount: number;
}

/**
 * The events of one assignment change: a new leader or epoch is a leader change (or the partition
 * going offline when no leader is left), ISR members removed are a shrink and added ones an
 * expansion, and adding replicas appearing or clearing start or end a reassignment. Pure, so the
 * store derives the same events from the same change whichever implementation writes it.
 */
export function assignmentEvents(
  previous: PartitionAssignment | NewPartitionAssignment,
  next: PartitionAssignment | NewPartitionAssignment,
  cause: AssignmentChangeCause | undefined,
  atMs: number,
): NewClusterEvent[] {
  const base = {
    atMs,
    topic: next.topic,
    partition: next.partition,
    ...(cause === undefined ? {} : { cause }),
  };
  const events: NewClusterEvent[] = [];
  if (previous.leader !== next.leader || previous.leaderEpoch !== next.leaderEpoch) {
    events.push({
      ...base,
      kind: next.leader < 0 ? 'partition-offline' : 'leader-change',
      leader: next.leader,
      previousLeader: previous.leader,
      leaderEpoch: next.leaderEpoch,
      isr: [...next.isr],
    });
  }
  const before = new Set(previous.isr);
  const after = new Set(next.isr);
  const removed = previous.isr.filter((id) => !after.has(id));
  const added = next.isr.filter((id) => !before.has(id));
  const isrChange = {
    leader: next.leader,
    leaderEpoch: next.leaderEpoch,
    isr: [...next.isr],
    previousIsr: [...previous.isr],
  };
  if (removed.length > 0) {
    events.push({ ...base, kind: 'isr-shrink', ...isrChange, detail: `removed ${removed.join(', ')}` });
  }
  if (added.length > 0) {
    events.push({ ...base, kind: 'isr-expand', ...isrChange, detail: `added ${added.join(', ')}` });
  }
  const wasAdding = (previous.addingReplicas?.length ?? 0) > 0;
  const isAdding = (next.addingReplicas?.length ?? 0) > 0;
  if (!wasAdding && isAdding) {
    events.push({
      ...base,
      kind: 'reassignment-started',
      detail: `adding ${next.addingReplicas!.join(', ')}; replicas ${next.replicas.join(', ')}`,
    });
  } else if (wasAdding && !isAdding) {
    events.push({
      ...base,
      kind: cause === 'reassignment-cancelled' ? 'reassignment-cancelled' : 'reassignment-completed',
      detail: `replicas ${next.replicas.join(', ')}`,
    });
  }
  return events;
}

/**
 * The assignment as the store writes it: when its ISR or its leader changed, the time of the change
 * is recorded on it, so "under-replicated since" needs no event query.
 */
export function withChangeTimes<T extends PartitionAssignment | NewPartitionAssignment>(
  previous: PartitionAssignment | NewPartitionAssignment,
  next: T,
  atMs: number,
): T {
  const isrChanged = JSON.stringify([...previous.isr].sort()) !== JSON.stringify([...next.isr].sort());
  const leaderChanged = previous.leader !== next.leader || previous.leaderEpoch !== next.leaderEpoch;
  return {
    ...next,
    ...(isrChanged ? { isrChangedAtMs: atMs } : {}),
    ...(leaderChanged ? { leaderChangedAtMs: atMs } : {}),
  };
}

/** Whether an event names the broker: as its subject, its leader or previous leader, or an ISR member that came or went. */
export function eventNamesBroker(event: ClusterEvent, brokerId: number): boolean {
  if (event.brokerId === brokerId || event.leader === brokerId || event.previousLeader === brokerId)
    return true;
  if (event.isr === undefined || event.previousIsr === undefined) return false;
  return event.isr.includes(brokerId) !== event.previousIsr.includes(brokerId);
}

/** Whether an event is one the query asks for (apart from its limit). */
export function eventMatches(event: ClusterEvent, query: StoredEventQuery): boolean {
  if (query.kinds !== undefined && !query.kinds.includes(event.kind)) return false;
  if (query.sinceMs !== undefined && event.atMs < query.sinceMs) return false;
  if (query.untilMs !== undefined && event.atMs > query.untilMs) return false;
  if (query.topic !== undefined && event.topic !== query.topic) return false;
  if (query.partition !== undefined && event.partition !== query.partition) return false;
  if (query.brokerId !== undefined && !eventNamesBroker(event, query.brokerId)) return false;
  return true;
}

/** An event id: the zero-padded time first, so ids sort by time as strings (and as etcd keys). */
export function clusterEventId(atMs: number, counter: number, suffix: string): string {
  return `${String(atMs).padStart(15, '0')}-${String(counter).padStart(6, '0')}-${suffix}`;
}
