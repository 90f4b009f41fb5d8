import { defineApi } from '../../../schema/api';
import { field } from '../../../schema/struct';
import { int16, string } from '../../../schema/types';

/**
 * WeirDeleteUser (key 32008, Weir only), version 0: removes a SASL user, or only its credential
 * for `mechanism` when one is named (the user goes with its last credential). Connections it
 * already authenticated stay open. Errors: RESOURCE_NOT_FOUND, UNSUPPORTED_SASL_MECHANISM.
 */
export const WeirDeleteUser = defineApi({
  apiKey: 32008,
  name: 'WeirDeleteUser',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    username: field(string),
    mechanism: field(string, { nullable: '0+', default: null }),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
  },
});
