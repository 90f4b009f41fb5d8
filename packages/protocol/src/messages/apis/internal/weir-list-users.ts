import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, string } from '../../../schema/types';

/**
 * WeirListUsers (key 32006, Weir only), version 0: the SASL users and, per user, its SCRAM
 * mechanisms with their iterations, sorted by name. Never salts or keys. Kafka's
 * DescribeUserScramCredentials (50) is flexible-only, so the client listener cannot serve it.
 */
export const WeirListUsers = defineApi({
  apiKey: 32006,
  name: 'WeirListUsers',
  versions: '0',
  flexibleVersions: '0+',
  request: {},
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    users: field(
      array(
        struct({
          name: field(string),
          credentials: field(array(struct({ mechanism: field(string), iterations: field(int32) }))),
        }),
      ),
    ),
  },
});
