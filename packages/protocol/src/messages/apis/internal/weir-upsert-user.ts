import { defineApi } from '../../../schema/api';
import { field } from '../../../schema/struct';
import { bytes, int16, int32, string } from '../../../schema/types';

/**
 * WeirUpsertUser (key 32007, Weir only), version 0: creates a SASL user or replaces one of its
 * SCRAM credentials (mechanism SCRAM-SHA-256 or SCRAM-SHA-512). Either `password` (the broker
 * salts and derives) or `salt` with `saltedPassword` (derived by the caller, as Kafka's
 * AlterUserScramCredentials does, so the password never travels); the SDK sends the latter.
 * `iterations` 0 means the broker's default (8192); otherwise 4096–16384. Errors:
 * UNSUPPORTED_SASL_MECHANISM, UNACCEPTABLE_CREDENTIAL, INVALID_REQUEST.
 */
export const WeirUpsertUser = defineApi({
  apiKey: 32007,
  name: 'WeirUpsertUser',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    username: field(string),
    mechanism: field(string),
    iterations: field(int32),
    password: field(string, { nullable: '0+', default: null }),
    salt: field(bytes, { nullable: '0+', default: null }),
    saltedPassword: field(bytes, { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
  },
});
