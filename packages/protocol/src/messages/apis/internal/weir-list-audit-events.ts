import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, int16, int32, int64, string } from '../../../schema/types';

/**
 * WeirListAuditEvents (key 32018, Weir only), version 0: the administrative actions one broker
 * handled and recorded in its audit log (docs/architecture.md §8), newest first. Served only by
 * the internal listener. Filters: -1 or null means none; `outcome` is "ok" or "failed". Paging:
 * `beforeId` is the id of the last event of the previous page (ids sort by time as strings, the
 * same way on every broker, so a cursor works across merged answers), `nextBeforeId` is null when
 * there are no older matching events.
 */
export const WeirListAuditEvents = defineApi({
  apiKey: 32018,
  name: 'WeirListAuditEvents',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    sinceMs: field(int64, { default: -1n }),
    untilMs: field(int64, { default: -1n }),
    principal: field(string, { nullable: '0+', default: null }),
    action: field(string, { nullable: '0+', default: null }),
    resourceName: field(string, { nullable: '0+', default: null }),
    outcome: field(string, { nullable: '0+', default: null }),
    beforeId: field(string, { nullable: '0+', default: null }),
    limit: field(int32),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    events: field(
      array(
        struct({
          id: field(string),
          atMs: field(int64),
          brokerId: field(int32),
          principal: field(string),
          clientId: field(string),
          clientHost: field(string),
          listener: field(string),
          action: field(string),
          resourceType: field(string),
          resourceName: field(string),
          /** A compact JSON summary of what was asked (configs set, ACL bindings, offsets, reason). */
          input: field(string),
          outcomeCode: field(int16),
          outcomeMessage: field(string, { nullable: '0+', default: null }),
        }),
      ),
    ),
    nextBeforeId: field(string, { nullable: '0+', default: null }),
  },
});
