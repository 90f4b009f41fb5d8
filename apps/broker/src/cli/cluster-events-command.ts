import type { Writable } from 'node:stream';
import type { ClusterEvent, ClusterEventQuery, InternalAdmin } from '@weir/protocol';
import { formatTable } from './table';

export interface ClusterEventsOptions {
  query: ClusterEventQuery;
  json: boolean;
}

/** `weir cluster events`: the replication timeline, newest first, as a table or one JSON line per event. */
export async function clusterEventsCommand(
  internal: InternalAdmin,
  options: ClusterEventsOptions,
  deps: { stdout: Writable },
): Promise<undefined> {
  const events = await internal.listClusterEvents(options.query);
  if (options.json) {
    for (const event of events) deps.stdout.write(`${JSON.stringify(event)}\n`);
    return undefined;
  }
  const rows = events.map((event) => [
    new Date(event.atMs).toISOString(),
    event.kind,
    event.topic === undefined ? '' : `${event.topic}-${event.partition}`,
    event.brokerId === undefined ? '' : String(event.brokerId),
    leaderText(event),
    isrText(event),
    event.cause ?? '',
    event.detail ?? '',
  ]);
  deps.stdout.write(
    formatTable(['TIME', 'KIND', 'PARTITION', 'BROKER', 'LEADER', 'ISR', 'CAUSE', 'DETAIL'], rows),
  );
  return undefined;
}

function leaderText(event: ClusterEvent): string {
  if (event.leader === undefined) return '';
  const epoch = event.leaderEpoch === undefined ? '' : ` (epoch ${event.leaderEpoch})`;
  return event.previousLeader === undefined || event.previousLeader === event.leader
    ? `${event.leader}${epoch}`
    : `${event.previousLeader}→${event.leader}${epoch}`;
}

function isrText(event: ClusterEvent): string {
  if (event.isr === undefined) return '';
  return event.previousIsr === undefined
    ? event.isr.join(',')
    : `${event.previousIsr.join(',')}→${event.isr.join(',')}`;
}

/** `--since 1h`: a number with a unit (s, m, h, d), the time before now it means. */
export function parseSince(text: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (match === null) throw new Error(`--since takes a number and a unit (30s, 15m, 1h, 7d), got "${text}"`);
  const unitMs = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unitMs;
}
