import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, string } from '../../schema/types';

/**
 * DeleteAcls (key 31), versions 0–1 (docs/kafka-compat.md §3): both clients send at most v1, which adds
 * the pattern type to filters and matches (default 3, LITERAL); v2 is the first flexible version.
 */
export const DeleteAcls = defineApi({
  apiKey: 31,
  name: 'DeleteAcls',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    filters: field(
      array(
        struct({
          resourceTypeFilter: field(int8),
          resourceNameFilter: field(string, { nullable: '0+' }),
          patternTypeFilter: field(int8, { versions: '1+', default: 3 }),
          principalFilter: field(string, { nullable: '0+' }),
          hostFilter: field(string, { nullable: '0+' }),
          operation: field(int8),
          permissionType: field(int8),
        }),
      ),
    ),
  },
  response: {
    throttleTimeMs: field(int32),
    filterResults: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+' }),
          matchingAcls: field(
            array(
              struct({
                errorCode: field(int16),
                errorMessage: field(string, { nullable: '0+' }),
                resourceType: field(int8),
                resourceName: field(string),
                patternType: field(int8, { versions: '1+', default: 3 }),
                principal: field(string),
                host: field(string),
                operation: field(int8),
                permissionType: field(int8),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
