import { defineApi } from '../../schema/api';
import { field } from '../../schema/struct';
import { bytes, int16, int64, string } from '../../schema/types';

/**
 * SaslAuthenticate (key 36), versions 0–2: one round of SASL bytes in each direction. librdkafka
 * 2.0.2 sends only v0 and probes it; v1 adds the session lifetime, which a broker without
 * re-authentication leaves at 0 (kafkajs schedules re-authentication for anything above 0);
 * v2 is the same fields, flexible (docs/kafka-compat.md §1.1, §3).
 */
export const SaslAuthenticate = defineApi({
  apiKey: 36,
  name: 'SaslAuthenticate',
  versions: '0-2',
  flexibleVersions: '2+',
  request: {
    authBytes: field(bytes),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+' }),
    authBytes: field(bytes),
    sessionLifetimeMs: field(int64, { versions: '1+', default: 0n }),
  },
});
