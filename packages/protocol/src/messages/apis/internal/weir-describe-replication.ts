import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirDescribeReplication (key 32014, Weir only), version 0: the partitions the answering broker
 * leads, with what only their leader knows, its followers' progress (docs/architecture.md §6.5),
 * and when the ISR and the leader last changed (-1: not recorded). Each broker answers for itself,
 * so a console asks every broker and merges. Served only by the internal listener.
 */
export const WeirDescribeReplication = defineApi({
  apiKey: 32014,
  name: 'WeirDescribeReplication',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    /** Only these topics; null for every topic. */
    topics: field(array(string), { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    partitions: field(
      array(
        struct({
          topic: field(string),
          partition: field(int32),
          leaderEpoch: field(int32),
          replicas: field(array(int32)),
          isr: field(array(int32)),
          minInsyncReplicas: field(int32),
          highWatermark: field(int64),
          logEndOffset: field(int64),
          isrChangedAtMs: field(int64, { default: -1n }),
          leaderChangedAtMs: field(int64, { default: -1n }),
          followers: field(
            array(
              struct({
                brokerId: field(int32),
                logEndOffset: field(int64),
                lagRecords: field(int64),
                lagMs: field(int64),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
