import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, int64, records, string } from '../../schema/types';

/**
 * Fetch (key 1), versions 0–11: v0–v3 answer in the legacy message formats (magic 0 below v2,
 * magic 1 from v2; the broker converts its stored batches for them), v3 adds max_bytes, v4 adds the last stable offset and the aborted-transaction list
 * (read_committed), and librdkafka needs the range to contain 4 and 10. Records are returned as
 * whole stored batches; an empty result is zero-length bytes, never null (librdkafka reads a null
 * as an invalid message set).
 */
export const Fetch = defineApi({
  apiKey: 1,
  name: 'Fetch',
  versions: '0-11',
  flexibleVersions: '12+',
  request: {
    replicaId: field(int32, { default: -1 }),
    maxWaitMs: field(int32),
    minBytes: field(int32),
    maxBytes: field(int32, { versions: '3+', default: 0x7fffffff }),
    isolationLevel: field(int8, { versions: '4+' }),
    sessionId: field(int32, { versions: '7+' }),
    sessionEpoch: field(int32, { versions: '7+', default: -1 }),
    topics: field(
      array(
        struct({
          topic: field(string),
          partitions: field(
            array(
              struct({
                partition: field(int32),
                currentLeaderEpoch: field(int32, { versions: '9+', default: -1 }),
                fetchOffset: field(int64),
                logStartOffset: field(int64, { versions: '5+', default: -1n }),
                partitionMaxBytes: field(int32),
              }),
            ),
          ),
        }),
      ),
    ),
    forgottenTopicsData: field(
      array(
        struct({
          topic: field(string),
          partitions: field(array(int32)),
        }),
      ),
      { versions: '7+' },
    ),
    rackId: field(string, { versions: '11+' }),
  },
  response: {
    throttleTimeMs: field(int32, { versions: '1+' }),
    errorCode: field(int16, { versions: '7+' }),
    sessionId: field(int32, { versions: '7+' }),
    responses: field(
      array(
        struct({
          topic: field(string),
          partitions: field(
            array(
              struct({
                partitionIndex: field(int32),
                errorCode: field(int16),
                highWatermark: field(int64),
                lastStableOffset: field(int64, { versions: '4+', default: -1n }),
                logStartOffset: field(int64, { versions: '5+', default: -1n }),
                abortedTransactions: field(
                  array(
                    struct({
                      producerId: field(int64),
                      firstOffset: field(int64),
                    }),
                  ),
                  { versions: '4+', nullable: '4+', default: null },
                ),
                preferredReadReplica: field(int32, { versions: '11+', default: -1 }),
                records: field(records, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
