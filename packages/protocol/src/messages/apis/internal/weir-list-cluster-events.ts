import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirListClusterEvents (key 32013, Weir only), version 0: the replication timeline the brokers
 * keep (docs/architecture.md §6), newest first, filtered by time, topic, partition and broker.
 * Served only by the internal listener. -1 (or null) in a filter field means no filter; in an
 * event, -1 or null means the event has no such field.
 */
export const WeirListClusterEvents = defineApi({
  apiKey: 32013,
  name: 'WeirListClusterEvents',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    sinceMs: field(int64, { default: -1n }),
    untilMs: field(int64, { default: -1n }),
    topic: field(string, { nullable: '0+', default: null }),
    partition: field(int32, { default: -1 }),
    brokerId: field(int32, { default: -1 }),
    limit: field(int32),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    events: field(
      array(
        struct({
          id: field(string),
          atMs: field(int64),
          kind: field(string),
          topic: field(string, { nullable: '0+', default: null }),
          partition: field(int32, { default: -1 }),
          brokerId: field(int32, { default: -1 }),
          leader: field(int32, { default: -1 }),
          previousLeader: field(int32, { default: -1 }),
          leaderEpoch: field(int32, { default: -1 }),
          isr: field(array(int32), { nullable: '0+', default: null }),
          previousIsr: field(array(int32), { nullable: '0+', default: null }),
          cause: field(string, { nullable: '0+', default: null }),
          sessionId: field(string, { nullable: '0+', default: null }),
          detail: field(string, { nullable: '0+', default: null }),
        }),
      ),
    ),
  },
});
