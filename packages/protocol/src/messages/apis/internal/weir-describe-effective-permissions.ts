import { defineApi } from '../../../schema/api';
import { field, struct } from '../../../schema/struct';
import { array, bool, int16, string } from '../../../schema/types';

/** One ACL that decided a verdict, as names (the same fields as an ACL binding). */
const decidingAcl = struct({
  resourceType: field(string),
  resourceName: field(string),
  patternType: field(string),
  principal: field(string),
  host: field(string),
  operation: field(string),
  permission: field(string),
});

/**
 * WeirDescribeEffectivePermissions (key 32010, Weir only), version 0: what one principal may do,
 * computed by the broker's own authorizer, so super users, `allowEveryoneIfNoAclFound`, DENY
 * precedence, prefixes and implied operations are applied exactly as for a real request. The
 * resources are the cluster, every topic, every group and every transactional id the broker knows,
 * and every resource or prefix an ACL names (`exists` false for those the broker does not have).
 * Each resource lists every operation Kafka defines for its type with the verdict, the reason and
 * the ACLs behind it. `host` is the client address the verdicts assume (`*`: only ACLs for every
 * host apply). Asking needs DESCRIBE on the cluster, except a principal asking about itself.
 */
export const WeirDescribeEffectivePermissions = defineApi({
  apiKey: 32010,
  name: 'WeirDescribeEffectivePermissions',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    principal: field(string),
    host: field(string),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
    principal: field(string),
    host: field(string),
    superUser: field(bool),
    allowEveryoneIfNoAclFound: field(bool),
    resources: field(
      array(
        struct({
          resourceType: field(string),
          resourceName: field(string),
          patternType: field(string),
          exists: field(bool),
          operations: field(
            array(
              struct({
                operation: field(string),
                allowed: field(bool),
                reason: field(string),
                acls: field(array(decidingAcl)),
              }),
            ),
          ),
        }),
      ),
    ),
  },
});
