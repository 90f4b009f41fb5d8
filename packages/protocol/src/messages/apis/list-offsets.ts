import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, int64, string } from '../../schema/types';

/**
 * ListOffsets (key 2), versions 0–5, all non-flexible (flexible from v6): the earliest, latest or
 * by-timestamp offset of each partition. v0 asks for up to max_num_offsets offsets and gets an
 * array of old-style offsets instead of one (timestamp, offset) pair (Burrow and Sarama's GetOffset
 * at their default version send it); v2 adds the isolation level (latest means
 * the LSO under read_committed); v4 the client's `current_leader_epoch` (KIP-320 fencing) and the
 * leader epoch of the offset found; v5 only allows the broker OFFSET_NOT_AVAILABLE.
 */
export const ListOffsets = defineApi({
  apiKey: 2,
  name: 'ListOffsets',
  versions: '0-5',
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
                currentLeaderEpoch: field(int32, { versions: '4+', default: -1 }),
                timestamp: field(int64),
                maxNumOffsets: field(int32, { versions: '0', default: 1 }),
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
                oldStyleOffsets: field(array(int64), { versions: '0', default: [] }),
                timestamp: field(int64, { versions: '1+', default: -1n }),
                offset: field(int64, { versions: '1+', default: -1n }),
                leaderEpoch: field(int32, { versions: '4+', default: -1 }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
