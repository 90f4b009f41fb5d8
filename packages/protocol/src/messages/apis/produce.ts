import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, records, string } from '../../schema/types';

/**
 * Produce (key 0), versions 0–8: v0–v2 carry legacy message sets (magic 0 and 1), v3 is the first
 * that carries RecordBatch v2, v7 allows zstd and v8 adds the per-record errors. librdkafka before
 * 2.11 compresses with gzip, snappy or lz4 only when the range contains v0, and zstd when it
 * contains v7 (docs/kafka-compat.md §1.2). An acks=0 request gets no response at all.
 */
export const Produce = defineApi({
  apiKey: 0,
  name: 'Produce',
  versions: '0-8',
  flexibleVersions: '9+',
  request: {
    transactionalId: field(string, { versions: '3+', nullable: '3+', default: null }),
    acks: field(int16),
    timeoutMs: field(int32),
    topicData: field(
      array(
        struct({
          name: field(string),
          partitionData: field(
            array(
              struct({
                index: field(int32),
                records: field(records, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
  },
  response: {
    responses: field(
      array(
        struct({
          name: field(string),
          partitionResponses: field(
            array(
              struct({
                index: field(int32),
                errorCode: field(int16),
                baseOffset: field(int64),
                logAppendTimeMs: field(int64, { versions: '2+', default: -1n }),
                logStartOffset: field(int64, { versions: '5+', default: -1n }),
                recordErrors: field(
                  array(
                    struct({
                      batchIndex: field(int32),
                      batchIndexErrorMessage: field(string, { nullable: '8+', default: null }),
                    }),
                  ),
                  { versions: '8+', default: [] },
                ),
                errorMessage: field(string, { versions: '8+', nullable: '8+', default: null }),
              }),
            ),
          ),
        }),
      ),
    ),
    throttleTimeMs: field(int32, { versions: '1+' }),
  },
});
