import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * OffsetFetch (key 9), versions 0–5: a consumer group's committed offsets. v0 and v1 are the same
 * on the wire (Kafka 0.8 read v0 from ZooKeeper; Weir answers both from the group coordinator);
 * librdkafka 2.0.2 probes exactly v1; v6 is flexible (docs/kafka-compat.md §3). From
 * v2 a null topic list means "every topic the group has committed" and a top-level error code
 * follows the topics; v5 returns the committed leader epoch.
 */
export const OffsetFetch = defineApi({
  apiKey: 9,
  name: 'OffsetFetch',
  versions: '0-5',
  flexibleVersions: '6+',
  request: {
    groupId: field(string, { versions: '0-7' }),
    topics: field(
      array(
        struct({
          name: field(string, { versions: '0-7' }),
          partitionIndexes: field(array(int32), { versions: '0-7' }),
        }),
      ),
      { versions: '0-7', nullable: '2-7' },
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '3+' }),
    topics: field(
      array(
        struct({
          name: field(string, { versions: '0-7' }),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32, { versions: '0-7' }),
                committedOffset: field(int64, { versions: '0-7' }),
                committedLeaderEpoch: field(int32, { versions: '5-7', default: -1 }),
                metadata: field(string, { versions: '0-7', nullable: '0-7' }),
                errorCode: field(int16, { versions: '0-7' }),
              }),
            ),
            { versions: '0-7' },
          ),
        }),
      ),
      { versions: '0-7' },
    ),
    errorCode: field(int16, { versions: '2-7', default: 0 }),
  },
});
