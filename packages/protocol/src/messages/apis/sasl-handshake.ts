import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { array, int16, string } from '../../schema/types';

/**
 * SaslHandshake (key 17), versions 0–1: the client names its SASL mechanism and learns which ones
 * are enabled. Both versions have the same layout: v0 means raw SASL frames follow, v1 means
 * SaslAuthenticate requests follow. librdkafka 2.0.2 probes exactly 0 and exactly 1, so the range
 * must hold both (docs/kafka-compat.md §1.2, §3). Served before authentication.
 */
export const SaslHandshake = defineApi({
  apiKey: 17,
  name: 'SaslHandshake',
  versions: '0-1',
  flexibleVersions: 'none',
  request: {
    mechanism: field(string),
  },
  response: {
    errorCode: field(int16),
    mechanisms: field(array(string)),
  },
});
