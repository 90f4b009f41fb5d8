import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, int64, records, string } from '../../schema/types';

/**
 * Produce (key 0), versions 3–7: v3 is the first that carries RecordBatch v2 and v7 allows zstd;
 * librdkafka needs the advertised range to contain both (docs/kafka-compat.md §1.2). An acks=0 request
 * gets no response at all.
 */
export const Produce = defineApi({
  apiKey: 0,
  name: 'Produce',
  versions: '3-7',
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
              }),
            ),
          ),
        }),
      ),
    ),
    throttleTimeMs: field(int32, { versions: '1+' }),
  },
});
