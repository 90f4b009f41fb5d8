import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int8, int16, int32, string } from '../../schema/types';

/**
 * AlterConfigs (key 33), versions 0–1: kafkajs sends up to v1 and librdkafka v0; v2 is the first
 * flexible version. Both versions share one layout. It replaces a resource's whole configuration;
 * IncrementalAlterConfigs (key 44) edits single keys.
 */
export const AlterConfigs = defineApi({
  apiKey: 33,
  name: 'AlterConfigs',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    resources: field(
      array(
        struct({
          resourceType: field(int8),
          resourceName: field(string),
          configs: field(
            array(
              struct({
                name: field(string),
                value: field(string, { nullable: '0+' }),
              }),
            ),
          ),
        }),
      ),
    ),
    validateOnly: field(bool),
  },
  response: {
    throttleTimeMs: field(int32),
    responses: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+' }),
          resourceType: field(int8),
          resourceName: field(string),
        }),
      ),
    ),
  },
});
