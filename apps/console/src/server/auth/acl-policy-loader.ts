import { randomBytes } from 'node:crypto';
import { ACL_OPERATION_IDS, DescribeGroups, ErrorCode, MATCH_ALL_ACLS } from '@weir/protocol';
import type { BrokerClients } from '../admin-client';
import { type AclPolicyView, aclAllows } from '../services/permissions/acl-policy';

/**
 * Reads what a principal may do from the broker: every ACL (through the console's own token
 * connection: the user may not be allowed to describe ACLs), and whether the principal is
 * unrestricted (a super user), which no ACL shows. For that the broker is asked, as the user, for
 * its authorized operations on a group nobody names (DescribeGroups includeAuthorizedOperations):
 * when it answers DELETE there but the ACLs would not allow it, the broker's own rules (super
 * users, or allow.everyone.if.no.acl.found) let the user through, and everything is offered.
 */
export async function loadAclPolicy(
  principal: string,
  shared: BrokerClients,
  user: BrokerClients,
): Promise<AclPolicyView> {
  const probeGroup = `__weir-console-probe-${randomBytes(6).toString('hex')}`;
  const [bindings, probe] = await Promise.all([
    shared.admin().describeAcls(MATCH_ALL_ACLS),
    user.client().send('any', DescribeGroups, {
      groups: [probeGroup],
      includeAuthorizedOperations: true,
    }),
  ]);
  const group = probe.groups[0];
  const deleteBit = 1 << ACL_OPERATION_IDS.DELETE;
  const brokerAllows =
    group !== undefined &&
    group.errorCode === ErrorCode.NONE &&
    (group.authorizedOperations & deleteBit) !== 0;
  const base: AclPolicyView = { principal, unrestricted: false, allowEveryoneIfNoAclFound: false, bindings };
  return { ...base, unrestricted: brokerAllows && !aclAllows(base, 'DELETE', 'GROUP', probeGroup) };
}
