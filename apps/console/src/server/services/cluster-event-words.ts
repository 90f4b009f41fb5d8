import type { ClusterEvent } from '@weir/protocol';

/*
 * The replication timeline's events in words, for the page's list and REST's `description`: the
 * writers' cause codes become sentences, and the leader and ISR changes say from what to what.
 */

/** The writers' causes (docs/architecture.md §6.7) in words; an unknown code is shown as it is. */
const CAUSE_WORDS: Readonly<Record<string, string>> = {
  'leader-not-live': "failover: the leader's session ended",
  'offline-partition': 'a replica came back to a partition with no leader',
  'member-not-live': "an ISR member's session ended",
  'member-lost-storage': 'an ISR member lost its storage',
  unclean: 'unclean election: a replica outside the ISR became leader',
  'controlled-shutdown': 'the leader was shut down in a controlled way',
  'log-offline': "the leader's log went offline",
  'follower-lagging': 'the follower fell behind the leader',
  'follower-caught-up': 'the follower caught up with the leader',
  'preferred-election': 'a preferred-leader election',
  'auto-leader-rebalance': 'the automatic leader rebalance',
  reassignment: 'a reassignment',
  'reassignment-cancelled': 'a cancelled reassignment',
};

export function causeInWords(cause: string | undefined): string | undefined {
  if (cause === undefined || cause === '') return undefined;
  return CAUSE_WORDS[cause] ?? cause;
}

function list(ids: readonly number[] | undefined): string {
  return ids === undefined || ids.length === 0 ? 'none' : ids.join(', ');
}

/** The replicas that left the ISR (a shrink) or joined it (an expansion); none for other kinds. */
export function replicasChanged(event: ClusterEvent): number[] {
  if (event.kind !== 'isr-shrink' && event.kind !== 'isr-expand') return [];
  if (event.isr === undefined || event.previousIsr === undefined) return [];
  const [from, to] =
    event.kind === 'isr-shrink' ? [event.previousIsr, event.isr] : [event.isr, event.previousIsr];
  return from.filter((id) => !to.includes(id));
}

function brokers(ids: readonly number[]): string {
  return ids.length === 0 ? 'no broker' : `${ids.length === 1 ? 'broker' : 'brokers'} ${ids.join(', ')}`;
}

function isrChange(event: ClusterEvent): string {
  return `ISR [${list(event.previousIsr)}] → [${list(event.isr)}]`;
}

/**
 * Why it happened, in words: the writer's cause and its detail, or null when it gave neither. An
 * ISR change's detail ("removed 2") only repeats which replicas changed, so it is left out.
 */
export function reasonInWords(event: ClusterEvent): string | null {
  const isrChanged = event.kind === 'isr-shrink' || event.kind === 'isr-expand';
  const parts = [causeInWords(event.cause), isrChanged ? undefined : event.detail].filter(
    (part) => part !== undefined && part !== '',
  );
  return parts.length === 0 ? null : parts.join('; ');
}

/** One sentence on what happened, with why when the writer said. */
export function describeClusterEvent(event: ClusterEvent): string {
  const reason = reasonInWords(event);
  const because = reason === null ? '' : `: ${reason}`;
  const epoch = event.leaderEpoch === undefined ? '' : ` (epoch ${event.leaderEpoch})`;
  switch (event.kind) {
    case 'leader-change': {
      const from =
        event.previousLeader === undefined || event.previousLeader < 0
          ? 'no leader'
          : `broker ${event.previousLeader}`;
      return `leader ${from} → broker ${event.leader ?? '?'}${epoch}${because}`;
    }
    case 'partition-offline':
      return `offline: no leader left${event.previousLeader === undefined ? '' : ` (was broker ${event.previousLeader})`}${epoch}${because}`;
    case 'isr-shrink':
      return `${brokers(replicasChanged(event))} left the ISR, ${isrChange(event)}${because}`;
    case 'isr-expand':
      return `${brokers(replicasChanged(event))} joined the ISR, ${isrChange(event)}${because}`;
    case 'reassignment-started':
      return `reassignment started${because}`;
    case 'reassignment-completed':
      return `reassignment completed${because}`;
    case 'reassignment-cancelled':
      return `reassignment cancelled${because}`;
    case 'broker-session-started':
      return `broker ${event.brokerId ?? '?'}'s session started${because}`;
    case 'broker-session-ended':
      return `broker ${event.brokerId ?? '?'}'s session ended${because}`;
  }
}
