import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, int64, string } from '../../schema/types';

/**
 * ListOffsets (key 2), versions 1–3: the earliest/latest/by-timestamp offset of each partition.
 * v0 returns an array of old-style offsets instead of one (timestamp, offset) pair and no client
 * here needs it; v2 adds the isolation level (latest means the LSO under read_committed). v4 would
 * bring leader epochs, which we keep out of the protocol (docs/kafka-compat.md §3, §6.5).
 */
export const ListOffsets = defineApi({
  apiKey: 2,
  name: 'ListOffsets',
  versions: '1-3',
  flexibleVersions: '6+',
  request: {
    replicaId: field(int32),
    isolationLevel: field(int8, { versions: '2+' }),
    topics: field(
      array(
        struct({
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                timestamp: field(int64),
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
          name: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
                timestamp: field(int64, { versions: '1+', default: -1n }),
                offset: field(int64, { versions: '1+', default: -1n }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
