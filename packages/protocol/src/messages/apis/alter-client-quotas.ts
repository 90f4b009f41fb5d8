import { defineApi } from '../../schema/api';
import { field, struct } from '../../schema/struct';
import { array, bool, float64, int16, int32, string } from '../../schema/types';

/** One quota entity on the wire: its (type, name) pairs, a null name for the default entity. */
const entity = field(
  array(
    struct({
      entityType: field(string),
      entityName: field(string, { nullable: '0+' }),
    }),
  ),
);

/**
 * AlterClientQuotas (key 49, KIP-546), versions 0–1; v1 is the first flexible version. Each entry
 * names one entity and the keys to set (`remove` false, with `value`) or remove (`remove` true,
 * `value` ignored); each entry is answered with its own error.
 */
export const AlterClientQuotas = defineApi({
  apiKey: 49,
  name: 'AlterClientQuotas',
  versions: '0-1',
  flexibleVersions: '1+',
  request: {
    entries: field(
      array(
        struct({
          entity,
          ops: field(
            array(
              struct({
                key: field(string),
                value: field(float64),
                remove: field(bool),
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
    entries: field(
      array(
        struct({
          errorCode: field(int16),
          errorMessage: field(string, { nullable: '0+' }),
          entity,
        }),
      ),
    ),
  },
});
