import { defineApi } from '../../../schema/api';
import { field } from '../../../schema/struct';
import { int16, string } from '../../../schema/types';

/**
 * WeirVerifyCredentials (key 32009, Weir only): checks a username and password against the user's
 * SCRAM credential, for the console's login. Success carries the principal (`User:<name>`); a wrong
 * pair answers SASL_AUTHENTICATION_FAILED after the same growing delay as a failed SASL exchange,
 * counted per `remoteAddress` (the end user's address, as the caller saw it) or, when that is null,
 * per username.
 *
 * Version 1 adds the user's `credentialFingerprint` to a success (as WeirListUsers v1 reports it),
 * so a session can remember which credentials it was opened with.
 */
export const WeirVerifyCredentials = defineApi({
  apiKey: 32009,
  name: 'WeirVerifyCredentials',
  versions: '0-1',
  flexibleVersions: '0+',
  request: {
    username: field(string),
    password: field(string),
    remoteAddress: field(string, { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    principal: field(string, { nullable: '0+', default: null }),
    credentialFingerprint: field(string, { versions: '1+', nullable: '1+', default: null }),
  },
});
