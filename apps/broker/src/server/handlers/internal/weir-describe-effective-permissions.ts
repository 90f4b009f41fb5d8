import { ACL_WILDCARD, ErrorCode, WeirDescribeEffectivePermissions } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { effectivePermissions } from '../../../security/acl/effective-permissions';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';
import type { WireError } from '../../request-errors';

const RULES = API_ACL_RULES.WeirDescribeEffectivePermissions;

/** `User:` and a non-empty name, as ACLs and SASL principals are written. */
const PRINCIPAL_FORM = /^User:.+$/s;

/**
 * WeirDescribeEffectivePermissions v0: what one principal may do from one host, decided by the
 * authorizer of the listener that serves it, the internal one (the policy the console's requests
 * get). For every user that is the client listener's policy too; the internal token principal
 * (`User:weir-internal`, the console itself and the other brokers) is a super user there and is
 * reported as one (issue #15), although a SASL user of that name on the client listener is not.
 * Asking needs DESCRIBE on the cluster, except about oneself:
 * a console user may always see its own rights. A principal not of the form `User:<name>` is
 * INVALID_REQUEST; an empty host means `*`. Groups or transactions still loading answer
 * COORDINATOR_LOAD_IN_PROGRESS, which clients retry, rather than a view missing some of them.
 */
export const weirDescribeEffectivePermissionsHandler = defineHandler({
  api: WeirDescribeEffectivePermissions,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const host = request.host === '' ? ACL_WILDCARD : request.host;
    const failed = (error: WireError) => ({
      ...error,
      principal: request.principal,
      host,
      superUser: false,
      allowEveryoneIfNoAclFound: false,
      resources: [],
    });
    if (!PRINCIPAL_FORM.test(request.principal)) {
      return failed({
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: `principal: "${request.principal}" is not of the form User:<name>`,
      });
    }
    if (request.principal !== context.principal && !context.access.allows(RULES.cluster)) {
      return failed(deniedError(RULES.cluster));
    }
    const groups = services.groups.listGroups();
    const transactions = services.transactions.list();
    const loading = [groups.errorCode, transactions.errorCode].find((code) => code !== ErrorCode.NONE);
    if (loading !== undefined) return failed({ errorCode: loading, errorMessage: null });

    const { authorizer } = context.access;
    const resources = effectivePermissions(authorizer, request.principal, host, {
      topics: services.topicDescriptions.listTopics({ includeInternal: true }).map((topic) => topic.name),
      groups: groups.groups.map((group) => group.groupId),
      transactionalIds: transactions.transactions.map((row) => row.transactionalId),
    });
    return {
      ...NO_ERROR,
      principal: request.principal,
      host,
      superUser: authorizer.isSuperUser(request.principal),
      allowEveryoneIfNoAclFound: authorizer.allowEveryoneIfNoAclFound,
      resources,
    };
  },
});
