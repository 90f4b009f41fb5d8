import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, int8, int16, int32, string } from '../../schema/types';

/**
 * DescribeAcls (key 29), versions 0–1 (docs/kafka-compat.md §3): both clients send at most v1, which adds
 * the resource pattern type (default 3, LITERAL); v2 is the first flexible version. The throttle
 * time comes first in the response from v0.
 */
export const DescribeAcls = defineApi({
  apiKey: 29,
  name: 'DescribeAcls',
  versions: '0-1',
  flexibleVersions: '2+',
  request: {
    resourceTypeFilter: field(int8),
    resourceNameFilter: field(string, { nullable: '0+' }),
    patternTypeFilter: field(int8, { versions: '1+', default: 3 }),
    principalFilter: field(string, { nullable: '0+' }),
    hostFilter: field(string, { nullable: '0+' }),
    operation: field(int8),
    permissionType: field(int8),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+' }),
    resources: field(
      array(
        struct({
          resourceType: field(int8),
          resourceName: field(string),
          patternType: field(int8, { versions: '1+', default: 3 }),
          acls: field(
            array(
              struct({
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
