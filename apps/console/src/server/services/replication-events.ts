import type { ClusterEvent, ClusterEventQuery, InternalAdminApi } from '@weir/protocol';
import {
  type ClusterEventKindName,
  type ClusterEventView,
  DEFAULT_EVENT_RANGE,
  type EventRange,
  eventRanges,
  MAX_EVENT_LIMIT,
  type ReplicationEvents,
  type ReplicationEventsQuery,
} from '../api/schemas/replication-events';
import { describeClusterEvent, reasonInWords, replicasChanged } from './cluster-event-words';

/**
 * How many pages of the brokers' answer a kinds filter reads at most. The brokers filter by time,
 * topic, partition and broker themselves but not by kind, so a kinds filter reads newest first and
 * keeps the matches; a range with thousands of other events is cut short here rather than read
 * whole, and the answer says it was truncated.
 */
const MAX_KIND_PAGES = 4;

/** The absolute time range a query reads: a named range back from its end, or its own bounds. */
export function resolveEventRange(
  query: Pick<ReplicationEventsQuery, 'range' | 'sinceMs' | 'untilMs'>,
  nowMs: number,
): { sinceMs: number; untilMs: number; range: EventRange | null } {
  const untilMs = query.untilMs ?? nowMs;
  if (query.sinceMs !== undefined) return { sinceMs: query.sinceMs, untilMs, range: null };
  const range = query.range ?? DEFAULT_EVENT_RANGE;
  return { sinceMs: Math.max(0, untilMs - eventRanges[range]), untilMs, range };
}

function view(event: ClusterEvent): ClusterEventView {
  const { isr, previousIsr, ...rest } = event;
  return {
    ...rest,
    ...(isr === undefined ? {} : { isr: [...isr] }),
    ...(previousIsr === undefined ? {} : { previousIsr: [...previousIsr] }),
    replicasChanged: replicasChanged(event),
    reason: reasonInWords(event),
    description: describeClusterEvent(event),
  };
}

/**
 * The replication timeline for the console, newest first: the time range resolved (a named range
 * or `sinceMs`/`untilMs`, 24 hours back from now by default), the topic, partition and broker
 * filters passed to the brokers, and the kinds filter applied here (see MAX_KIND_PAGES).
 */
export async function readReplicationEvents(
  internal: Pick<InternalAdminApi, 'listClusterEvents'>,
  query: ReplicationEventsQuery,
  now: () => number,
): Promise<ReplicationEvents> {
  const asOfMs = now();
  const { sinceMs, untilMs, range } = resolveEventRange(query, asOfMs);
  const base: Omit<ClusterEventQuery, 'limit' | 'untilMs'> = {
    sinceMs,
    ...(query.topic === undefined ? {} : { topic: query.topic }),
    ...(query.partition === undefined ? {} : { partition: query.partition }),
    ...(query.brokerId === undefined ? {} : { brokerId: query.brokerId }),
  };
  const kinds =
    query.kinds === undefined ? undefined : new Set(query.kinds.split(',') as ClusterEventKindName[]);
  if (kinds === undefined) {
    const events = await internal.listClusterEvents({ ...base, untilMs, limit: query.limit });
    return {
      asOfMs,
      sinceMs,
      untilMs,
      range,
      limit: query.limit,
      truncated: events.length >= query.limit,
      events: events.map(view),
    };
  }
  const matched: ClusterEvent[] = [];
  const seen = new Set<string>();
  let pageUntilMs = untilMs;
  let truncated = false;
  for (let page = 0; ; page += 1) {
    const events = await internal.listClusterEvents({
      ...base,
      untilMs: pageUntilMs,
      limit: MAX_EVENT_LIMIT,
    });
    for (const event of events) {
      // The next page starts at the oldest time of this one (the bound is inclusive, and events
      // of one millisecond may straddle the pages), so events already seen are skipped by id.
      if (seen.has(event.id)) continue;
      seen.add(event.id);
      if (kinds.has(event.kind)) matched.push(event);
    }
    if (matched.length >= query.limit) {
      truncated = true;
      break;
    }
    const oldest = events.at(-1);
    if (events.length < MAX_EVENT_LIMIT || oldest === undefined) break;
    if (page + 1 >= MAX_KIND_PAGES || oldest.atMs === pageUntilMs) {
      // A full page within one millisecond cannot be paged past by time.
      truncated = true;
      break;
    }
    pageUntilMs = oldest.atMs;
  }
  return {
    asOfMs,
    sinceMs,
    untilMs,
    range,
    limit: query.limit,
    truncated,
    events: matched.slice(0, query.limit).map(view),
  };
}
