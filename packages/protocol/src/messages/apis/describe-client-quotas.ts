import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, float64, int8, int16, int32, string } from '../../schema/types';

/**
 * DescribeClientQuotas (key 48, KIP-546), versions 0–1; v1 is the first flexible version. A filter
 * is a list of components, one per entity type ("user", "client-id"), each matching an exact name
 * (match type 0), the default entity (1, match null) or any entity of the type (2, match null);
 * `strict` leaves out entities that have types the filter does not name. Entity names are null for
 * the default entity, and values are doubles whatever the quota's unit.
 */
export const DescribeClientQuotas = defineApi({
  apiKey: 48,
  name: 'DescribeClientQuotas',
  versions: '0-1',
  flexibleVersions: '1+',
  request: {
    components: field(
      array(
        struct({
          entityType: field(string),
          matchType: field(int8),
          match: field(string, { nullable: '0+' }),
        }),
      ),
    ),
    strict: field(bool),
  },
  response: {
    throttleTimeMs: field(int32),
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+' }),
    entries: field(
      array(
        struct({
          entity: field(
            array(
              struct({
                entityType: field(string),
                entityName: field(string, { nullable: '0+' }),
              }),
            ),
          ),
          values: field(
            array(
              struct({
                key: field(string),
                value: field(float64),
              }),
            ),
          ),
        }),
      ),
      { nullable: '0+' },
    ),
  },
});
