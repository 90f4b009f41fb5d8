import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, string } from '../../../schema/types';

/**
 * WeirListUsers (key 32006, Weir only): the SASL users and, per user, its SCRAM mechanisms with
 * their iterations, sorted by name. Never salts or keys. Kafka's DescribeUserScramCredentials (50)
 * is flexible-only, so the client listener cannot serve it.
 *
 * Version 1 adds a filter (`usernames`, null for every user; unknown names are left out) and per
 * user a `credentialFingerprint`: a digest of its stored credentials that changes whenever any of
 * them is replaced or removed, so the console can end a user's sessions once their password
 * changes, whoever changed it.
 */
export const WeirListUsers = defineApi({
  apiKey: 32006,
  name: 'WeirListUsers',
  versions: '0-1',
  flexibleVersions: '0+',
  request: {
    usernames: field(array(string), { versions: '1+', nullable: '1+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    users: field(
      array(
        struct({
          name: field(string),
          credentials: field(array(struct({ mechanism: field(string), iterations: field(int32) }))),
          credentialFingerprint: field(string, { versions: '1+', default: '' }),
        }),
      ),
    ),
  },
});
