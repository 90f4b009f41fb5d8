import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int16, int32, string } from '../../schema/types';

/**
 * ApiVersions (key 18). Version 3 is the one flexible message librdkafka sends first, before it
 * knows what the broker speaks; its response still uses response header v0.
 */
export const ApiVersions = defineApi({
  apiKey: 18,
  name: 'ApiVersions',
  versions: '0-3',
  flexibleVersions: '3+',
  request: {
    clientSoftwareName: field(string, { versions: '3+' }),
    clientSoftwareVersion: field(string, { versions: '3+' }),
  },
  response: {
    errorCode: field(int16),
    apiKeys: field(
      array(
        struct({
          apiKey: field(int16),
          minVersion: field(int16),
          maxVersion: field(int16),
        }),
      ),
    ),
    throttleTimeMs: field(int32, { versions: '1+' }),
  },
});
