import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, string } from '../../schema/types';

/**
 * CreateAcls (key 30), versions 0–1 (docs/kafka-compat.md §3): both clients send at most v1, which adds
 * the resource pattern type (default 3, LITERAL); v2 is the first flexible version.
 */
export const CreateAcls = defineApi({
  apiKey: 30,
  name: 'CreateAcls',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    creations: field(
      array(
        struct({
          resourceType: field(int8),
          resourceName: field(string),
          resourcePatternType: field(int8, { versions: '1+', default: 3 }),
          principal: field(string),
          host: field(string),
          operation: field(int8),
          permissionType: field(int8),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    results: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+' }),
        }),
      ),
    ),
  },
});
