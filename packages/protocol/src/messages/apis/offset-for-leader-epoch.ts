import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * OffsetForLeaderEpoch (key 23), versions 0–3, all non-flexible (flexible from v4): for each
 * partition, the end offset of a leader epoch as the leader's epoch checkpoint knows it. v1 adds
 * the epoch the answer is for (the largest at or below the one asked, KIP-279), v2 the throttle
 * time and the client's `current_leader_epoch` (KIP-320 fencing), v3 the replica id (-1 from
 * consumers, a broker id from followers; -2, the default below v3, lets any replica answer).
 * librdkafka ≥ 2.1 validates its positions with it (docs/kafka-compat.md §6.5).
 */
export const OffsetForLeaderEpoch = defineApi({
  apiKey: 23,
  name: 'OffsetForLeaderEpoch',
  versions: '0-3',
  flexibleVersions: '4+',
  request: {
    replicaId: field(int32, { versions: '3+', default: -2 }),
    topics: field(
      array(
        struct({
          topic: field(string),
          partitions: field(
            array(
              struct({
                partition: field(int32),
                currentLeaderEpoch: field(int32, { versions: '2+', default: -1 }),
                leaderEpoch: field(int32),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '2+' }),
    topics: field(
      array(
        struct({
          topic: field(string),
          partitions: field(
            array(
              struct({
                errorCode: field(int16),
                partition: field(int32),
                leaderEpoch: field(int32, { versions: '1+', default: -1 }),
                endOffset: field(int64, { default: -1n }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
