import {
  ACL_WILDCARD,
  ACL_WILDCARD_PRINCIPAL,
  type AclBinding,
  type AclOperation,
  type AclResourceType,
} from '@weir/protocol';
import { AclIndex } from './acl-index';

/** A resource a request acts on; CLUSTER's name is always `kafka-cluster`. */
export interface AclResource {
  readonly resourceType: AclResourceType;
  readonly name: string;
}

export interface AuthorizerOptions {
  /** super.users: principals allowed everything, whatever the ACLs say. */
  readonly superUsers: readonly string[];
  /** allow.everyone.if.no.acl.found: the answer for a resource no ACL applies to. */
  readonly allowEveryoneIfNoAclFound: boolean;
  /**
   * The ACLs as stored. Read on every check; the index is rebuilt only when this returns a
   * different array, which the metadata store guarantees on every change (it replaces its state).
   */
  readonly bindings: () => readonly AclBinding[];
}

/**
 * An ALLOW for these operations also allows DESCRIBE (or DESCRIBE_CONFIGS): whoever may read,
 * write, delete or alter a resource may see it (Kafka's `AclAuthorizer` rule).
 */
const IMPLIED_BY: Partial<Record<AclOperation, readonly AclOperation[]>> = {
  DESCRIBE: ['DESCRIBE', 'READ', 'WRITE', 'DELETE', 'ALTER'],
  DESCRIBE_CONFIGS: ['DESCRIBE_CONFIGS', 'ALTER_CONFIGS'],
};

/**
 * The authorization policy (ARCHITECTURE §7): Kafka's ACL semantics, one function every command
 * goes through. Super users are allowed everything; otherwise the ACLs that apply to the resource
 * (LITERAL of its name or `*`, PREFIXED of a prefix of it) decide: a matching DENY wins, else a
 * matching ALLOW (ALL matching every operation, READ/WRITE/DELETE/ALTER implying DESCRIBE,
 * ALTER_CONFIGS implying DESCRIBE_CONFIGS) allows; a resource no ACL applies to at all is allowed
 * only with `allowEveryoneIfNoAclFound`.
 */
export class Authorizer {
  readonly #superUsers: ReadonlySet<string>;
  #indexedFrom: readonly AclBinding[] | undefined;
  #index = new AclIndex([]);

  constructor(private readonly options: AuthorizerOptions) {
    this.#superUsers = new Set(options.superUsers);
  }

  isSuperUser(principal: string): boolean {
    return this.#superUsers.has(principal);
  }

  authorize(principal: string, host: string, operation: AclOperation, resource: AclResource): boolean {
    if (this.#superUsers.has(principal)) return true;
    const acls = this.#current().matching(resource.resourceType, resource.name);
    if (acls.length === 0) return this.options.allowEveryoneIfNoAclFound;
    const clientHost = normalizeHost(host);
    const applicable = acls.filter((acl) => appliesTo(acl, principal, clientHost));
    if (applicable.some((acl) => acl.permission === 'DENY' && covers(acl.operation, operation))) return false;
    const allowing = IMPLIED_BY[operation] ?? [operation];
    return applicable.some(
      (acl) => acl.permission === 'ALLOW' && allowing.some((wanted) => covers(acl.operation, wanted)),
    );
  }

  /**
   * Whether the principal may do `operation` on at least one resource of the type (Kafka's
   * `authorizeByResourceType`, used for IDEMPOTENT_WRITE being implied by WRITE on some topic or
   * transactional id): some ALLOW applies that no DENY covers entirely (a DENY on `*`, on the same
   * literal name, or on a prefix of the allowed name or prefix). With no ACL of the type at all,
   * `allowEveryoneIfNoAclFound` answers.
   */
  authorizeAnyOfType(
    principal: string,
    host: string,
    operation: AclOperation,
    type: AclResourceType,
  ): boolean {
    if (this.#superUsers.has(principal)) return true;
    const acls = this.#current().ofType(type);
    if (acls.length === 0) return this.options.allowEveryoneIfNoAclFound;
    const clientHost = normalizeHost(host);
    const applicable = acls.filter(
      (acl) => appliesTo(acl, principal, clientHost) && covers(acl.operation, operation),
    );
    const denies = applicable.filter((acl) => acl.permission === 'DENY');
    return applicable.some(
      (allow) => allow.permission === 'ALLOW' && !denies.some((deny) => denyCovers(deny, allow)),
    );
  }

  #current(): AclIndex {
    const bindings = this.options.bindings();
    if (bindings !== this.#indexedFrom) {
      this.#index = new AclIndex(bindings);
      this.#indexedFrom = bindings;
    }
    return this.#index;
  }
}

function appliesTo(acl: AclBinding, principal: string, host: string): boolean {
  return (
    (acl.principal === principal || acl.principal === ACL_WILDCARD_PRINCIPAL) &&
    (acl.host === ACL_WILDCARD || normalizeHost(acl.host) === host)
  );
}

function covers(granted: AclOperation, wanted: AclOperation): boolean {
  return granted === wanted || granted === 'ALL';
}

/** Whether a DENY leaves nothing of what an ALLOW grants. */
function denyCovers(deny: AclBinding, allow: AclBinding): boolean {
  if (deny.patternType === 'LITERAL') {
    return (
      deny.resourceName === ACL_WILDCARD ||
      (allow.patternType === 'LITERAL' && deny.resourceName === allow.resourceName)
    );
  }
  return allow.resourceName !== ACL_WILDCARD && allow.resourceName.startsWith(deny.resourceName);
}

/**
 * Node reports IPv4 peers of a dual-stack socket as `::ffff:a.b.c.d`; ACLs name them `a.b.c.d`, as
 * Kafka's do.
 */
function normalizeHost(host: string): string {
  return host.startsWith('::ffff:') && host.includes('.') ? host.slice('::ffff:'.length) : host;
}
