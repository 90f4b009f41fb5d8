import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { int16, int32, int64, string } from '../../schema/types';

/**
 * AddOffsetsToTxn (key 25), versions 0–2 (docs/kafka-compat.md §0 item 5, §3): librdkafka sends only v0
 * and kafkajs at most v1; v3 is the first flexible version. v0, v1 and v2 share one layout.
 */
export const AddOffsetsToTxn = defineApi({
  apiKey: 25,
  name: 'AddOffsetsToTxn',
  versions: '0-2',
  flexibleVersions: '3+',
  request: {
    transactionalId: field(string),
    producerId: field(int64),
    producerEpoch: field(int16),
    groupId: field(string),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
  },
});
