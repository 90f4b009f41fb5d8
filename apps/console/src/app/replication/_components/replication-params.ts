import {
  createLoader,
  type inferParserType,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import {
  partitionReplicationStates,
  type ReplicationHealthInput,
} from '../../../server/api/schemas/replication';

/** The ISR health page's URL state: a topic, a broker and a state to narrow the list to. */
export const replicationParams = {
  topic: parseAsString.withDefault(''),
  broker: parseAsInteger,
  state: parseAsStringLiteral(partitionReplicationStates),
};

export type ReplicationParams = inferParserType<typeof replicationParams>;

export const loadReplicationParams = createLoader(replicationParams);

/** The `replication.health` input for the URL state; the server's prefetch and the client share it. */
export function replicationHealthInput(params: ReplicationParams): ReplicationHealthInput {
  const topic = params.topic.trim();
  return {
    ...(topic === '' ? {} : { topic }),
    ...(params.broker === null || params.broker < 0 ? {} : { brokerId: params.broker }),
    ...(params.state === null ? {} : { state: params.state }),
  };
}

/** A link to the ISR health page with a state (and optionally a topic) filter set. */
export function replicationHref(filter: { state?: string; topic?: string; broker?: number }): string {
  const query = new URLSearchParams();
  if (filter.topic !== undefined) query.set('topic', filter.topic);
  if (filter.broker !== undefined) query.set('broker', String(filter.broker));
  if (filter.state !== undefined) query.set('state', filter.state);
  const text = query.toString();
  return text === '' ? '/replication' : `/replication?${text}`;
}
