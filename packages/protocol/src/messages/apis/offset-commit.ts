import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, string } from '../../schema/types';

/**
 * OffsetCommit (key 8), versions 0–9: a consumer group member stores its positions. The range
 * overlaps the 1..2 that librdkafka 2.0.2 probes for its balanced-consumer feature, covers kafkajs
 * (max 5), Sarama's default offset manager (v1) and librdkafka 2.0.2's 7 (both stop there, so the
 * flexible v8–9 change nothing for them); v8 is the first flexible version and v9, the same on the
 * wire, the first a consumer-protocol (KIP-848) member may commit with: its member epoch goes in
 * the generation field (docs/kafka-compat.md §3). v0 has no generation or member id (a commit outside any generation),
 * the commit timestamp exists only in v1, the retention time only in v2–4, the committed leader
 * epoch from v6 and the static-membership instance id from v7.
 */
export const OffsetCommit = defineApi({
  apiKey: 8,
  name: 'OffsetCommit',
  versions: '0-9',
  flexibleVersions: '8+',
  request: {
    groupId: field(string),
    generationIdOrMemberEpoch: field(int32, { versions: '1+', default: -1 }),
    memberId: field(string, { versions: '1+' }),
    groupInstanceId: field(string, { versions: '7+', nullable: '7+', default: null }),
    retentionTimeMs: field(int64, { versions: '2-4', default: -1n }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                committedOffset: field(int64),
                committedLeaderEpoch: field(int32, { versions: '6+', default: -1 }),
                commitTimestampMs: field(int64, { versions: '1', default: -1n }),
                committedMetadata: field(string, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '3+' }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
