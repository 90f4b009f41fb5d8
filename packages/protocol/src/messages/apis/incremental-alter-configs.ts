import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, int8, int16, int32, string } from '../../schema/types';

/**
 * IncrementalAlterConfigs (key 44), version 0 only: v1 is flexible and no target client needs it
 * (kafkajs does not implement the API at all). Each config carries its own operation:
 * 0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT.
 */
export const IncrementalAlterConfigs = defineApi({
  apiKey: 44,
  name: 'IncrementalAlterConfigs',
  versions: '0',
  flexibleVersions: '1+',
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
                configOperation: field(int8),
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
