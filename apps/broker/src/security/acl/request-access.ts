import {
  ACL_OPERATION_IDS,
  type AclOperation,
  type AclResourceType,
  CLUSTER_RESOURCE_NAME,
} from '@weir/protocol';
import type { AclRule } from './api-acl-rules';
import type { Authorizer } from './authorizer';

/**
 * The authorization of one request: the policy bound to the request's principal and client host.
 * Handlers ask it with a rule from `API_ACL_RULES` and the resource the rule is about.
 */
export class RequestAccess {
  constructor(
    /** The policy of the listener the request came in on (the internal one has its own super user). */
    readonly authorizer: Authorizer,
    readonly principal: string,
    readonly host: string,
  ) {}

  /**
   * Whether the rule allows the request on `name` (ignored by cluster checks, whose resource is
   * the cluster). A rule about a named resource asked without a name is a bug, so it throws.
   */
  allows(rule: AclRule, name?: string): boolean {
    return rule.anyOf.some((check) => {
      if (check.anyOfType) {
        return this.authorizer.authorizeAnyOfType(
          this.principal,
          this.host,
          check.operation,
          check.resourceType,
        );
      }
      const resourceName = check.resourceType === 'CLUSTER' ? CLUSTER_RESOURCE_NAME : name;
      if (resourceName === undefined) throw new Error(`a ${check.resourceType} check needs a resource name`);
      return this.authorizer.authorize(this.principal, this.host, check.operation, {
        resourceType: check.resourceType,
        name: resourceName,
      });
    });
  }

  /**
   * Kafka's `authorized_operations` bit set (bit = the operation's wire id) of the operations
   * among `operations` the principal may do on a resource (DescribeGroups v3+ reports it).
   */
  authorizedOperations(
    resourceType: AclResourceType,
    name: string,
    operations: readonly AclOperation[],
  ): number {
    let bits = 0;
    for (const operation of operations) {
      if (this.authorizer.authorize(this.principal, this.host, operation, { resourceType, name })) {
        bits |= 1 << ACL_OPERATION_IDS[operation];
      }
    }
    return bits;
  }

  /** The items whose name the rule allows, and the others, each in their original order. */
  split<T>(rule: AclRule, items: readonly T[], nameOf: (item: T) => string): { allowed: T[]; denied: T[] } {
    const allowed: T[] = [];
    const denied: T[] = [];
    for (const item of items) (this.allows(rule, nameOf(item)) ? allowed : denied).push(item);
    return { allowed, denied };
  }
}
