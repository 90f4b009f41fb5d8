import {
  createLoader,
  type inferParserType,
  parseAsArrayOf,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import {
  clusterEventKinds,
  type EventRange,
  eventRanges,
  type ReplicationEventsInput,
} from '../../../../server/api/schemas/replication-events';

const RANGES = Object.keys(eventRanges) as EventRange[];

/**
 * The timeline page's URL state: the whole cluster, one broker (`broker`) or one partition
 * (`topic` and `partition`), how far back (`range`) and which kinds (comma-separated, as REST takes them).
 */
export const timelineParams = {
  topic: parseAsString.withDefault(''),
  partition: parseAsInteger,
  broker: parseAsInteger,
  range: parseAsStringLiteral(RANGES).withDefault('24h'),
  kinds: parseAsArrayOf(parseAsStringLiteral(clusterEventKinds)),
};

export type TimelineParams = inferParserType<typeof timelineParams>;

export const loadTimelineParams = createLoader(timelineParams);

/** The `replication.events` input for the URL state; the server's prefetch and the client share it. */
export function timelineInput(params: TimelineParams): ReplicationEventsInput {
  const topic = params.topic.trim();
  return {
    ...(topic === '' ? {} : { topic }),
    // A partition number without a topic would be refused; the page drops it instead.
    ...(topic === '' || params.partition === null || params.partition < 0
      ? {}
      : { partition: params.partition }),
    ...(params.broker === null || params.broker < 0 ? {} : { brokerId: params.broker }),
    range: params.range,
    ...(params.kinds === null || params.kinds.length === 0 ? {} : { kinds: params.kinds.join(',') }),
    limit: 1000,
  };
}

/** A link to the timeline of the whole cluster, one broker or one partition. */
export function timelineHref(scope: { topic?: string; partition?: number; broker?: number } = {}): string {
  const query = new URLSearchParams();
  if (scope.topic !== undefined) query.set('topic', scope.topic);
  if (scope.partition !== undefined) query.set('partition', String(scope.partition));
  if (scope.broker !== undefined) query.set('broker', String(scope.broker));
  const text = query.toString();
  return text === '' ? '/replication/timeline' : `/replication/timeline?${text}`;
}
