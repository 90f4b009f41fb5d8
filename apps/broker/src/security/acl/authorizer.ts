import {
  ACL_WILDCARD,
  ACL_WILDCARD_PRINCIPAL,
  type AclBinding,
  type AclOperation,
  type AclPatternType,
  type AclResourceType,
  type PermissionReason,
} from '@weir/protocol';
import { AclIndex } from './acl-index';

/** A resource a request acts on; CLUSTER's name is always `kafka-cluster`. */
export interface AclResource {
  readonly resourceType: AclResourceType;
  readonly name: string;
}

/**
 * A resource to explain: one name (LITERAL, the default), or with PREFIXED any name under the
 * prefix that no literal ACL or longer prefix names, i.e. only the ACLs that cover the whole
 * prefix (`*`, the prefix itself and shorter prefixes) decide.
 */
export interface AclResourcePattern extends AclResource {
  readonly patternType?: AclPatternType;
}

/** A verdict with why it is what it is, as the effective-permissions view shows it. */
export interface AclExplanation {
  readonly allowed: boolean;
  readonly reason: PermissionReason;
  /** The DENY ACLs that cover the operation for DENY_ACL, the allowing ones for ALLOW_ACL. */
  readonly acls: AclBinding[];
}

/**
 * Where {@link Authorizer} collects the ACLs behind a verdict when it is asked to explain one; the
 * lists are made only when an ACL goes into them, as most verdicts have none.
 */
interface DecidingAcls {
  denying?: AclBinding[];
  allowing?: AclBinding[];
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
 * The authorization policy (docs/architecture.md §7): Kafka's ACL semantics, one function every service
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
    return this.#allows(decide(acls, principal, normalizeHost(host), operation));
  }

  /**
   * The verdict {@link authorize} gives, with its reason and the ACLs behind it. Both go through
   * the same decision, so the explanation cannot disagree with what a request gets.
   */
  explain(
    principal: string,
    host: string,
    operation: AclOperation,
    resource: AclResourcePattern,
  ): AclExplanation {
    return this.explainEach(principal, host, [operation], resource)[0]!;
  }

  /** {@link explain} for several operations on one resource, looking its ACLs up once. */
  explainEach(
    principal: string,
    host: string,
    operations: readonly AclOperation[],
    resource: AclResourcePattern,
  ): AclExplanation[] {
    if (this.#superUsers.has(principal)) {
      return operations.map(() => ({ allowed: true, reason: 'SUPER_USER', acls: [] }));
    }
    const acls = this.#applying(resource);
    const clientHost = normalizeHost(host);
    return operations.map((operation) => {
      const deciding: DecidingAcls = {};
      const reason = decide(acls, principal, clientHost, operation, deciding);
      const shown = (reason === 'DENY_ACL' ? deciding.denying : deciding.allowing) ?? [];
      return { allowed: this.#allows(reason), reason, acls: shown };
    });
  }

  get allowEveryoneIfNoAclFound(): boolean {
    return this.options.allowEveryoneIfNoAclFound;
  }

  /** Every stored ACL (the index's source), for views that list the resources ACLs name. */
  bindings(): readonly AclBinding[] {
    return this.options.bindings();
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
    return this.explainAnyOfType(principal, host, operation, type).allowed;
  }

  /**
   * {@link authorizeAnyOfType} with its reason: ALLOW_ACL lists the ALLOWs that no DENY covers
   * entirely (the effective-permissions view shows them behind an implied IDEMPOTENT_WRITE).
   */
  explainAnyOfType(
    principal: string,
    host: string,
    operation: AclOperation,
    type: AclResourceType,
  ): AclExplanation {
    if (this.#superUsers.has(principal)) return { allowed: true, reason: 'SUPER_USER', acls: [] };
    const acls = this.#current().ofType(type);
    if (acls.length === 0) {
      return { allowed: this.options.allowEveryoneIfNoAclFound, reason: 'NO_ACL_FOUND', acls: [] };
    }
    const clientHost = normalizeHost(host);
    const applicable = acls.filter(
      (acl) => appliesTo(acl, principal, clientHost) && covers(acl.operation, operation),
    );
    const denies = applicable.filter((acl) => acl.permission === 'DENY');
    const allowing = applicable.filter(
      (allow) => allow.permission === 'ALLOW' && !denies.some((deny) => denyCovers(deny, allow)),
    );
    return allowing.length > 0
      ? { allowed: true, reason: 'ALLOW_ACL', acls: allowing }
      : { allowed: false, reason: 'NO_MATCHING_ALLOW', acls: [] };
  }

  #allows(reason: PermissionReason): boolean {
    if (reason === 'NO_ACL_FOUND') return this.options.allowEveryoneIfNoAclFound;
    return reason === 'ALLOW_ACL' || reason === 'SUPER_USER';
  }

  /** The ACLs that apply to the resource; for a prefix, those that cover every name under it. */
  #applying(resource: AclResourcePattern): AclBinding[] {
    const acls = this.#current().matching(resource.resourceType, resource.name);
    if (resource.patternType !== 'PREFIXED') return acls;
    // A literal ACL on the prefix's own text names one resource, not the names under the prefix.
    return acls.filter((acl) => acl.patternType === 'PREFIXED' || acl.resourceName === ACL_WILDCARD);
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

/**
 * The decision itself, shared by {@link Authorizer.authorize} and {@link Authorizer.explainEach}:
 * among the ACLs of the resource, those of the principal (or `User:*`) and the host (or `*`)
 * count; a DENY covering the operation wins, else an ALLOW of it, of ALL or of an operation
 * implying it allows. One pass and no allocation unless `deciding` collects the ACLs, in which
 * case the pass goes on after the first DENY so every deciding ACL is listed.
 */
function decide(
  acls: readonly AclBinding[],
  principal: string,
  clientHost: string,
  operation: AclOperation,
  deciding?: DecidingAcls,
): Exclude<PermissionReason, 'SUPER_USER'> {
  if (acls.length === 0) return 'NO_ACL_FOUND';
  let denied = false;
  let allowed = false;
  for (const acl of acls) {
    if (!appliesTo(acl, principal, clientHost)) continue;
    if (acl.permission === 'DENY') {
      if (!covers(acl.operation, operation)) continue;
      if (deciding === undefined) return 'DENY_ACL';
      denied = true;
      deciding.denying = appended(deciding.denying, acl);
    } else if (grants(acl.operation, operation)) {
      allowed = true;
      if (deciding !== undefined) deciding.allowing = appended(deciding.allowing, acl);
    }
  }
  return denied ? 'DENY_ACL' : allowed ? 'ALLOW_ACL' : 'NO_MATCHING_ALLOW';
}

/** The list with the ACL added, made on the first one. */
function appended(list: AclBinding[] | undefined, acl: AclBinding): AclBinding[] {
  if (list === undefined) return [acl];
  list.push(acl);
  return list;
}

/**
 * Whether an ACL counts for the principal from the host. A host-specific ACL never matches the
 * host `*`, which the effective-permissions view asks for as "a client address only ACLs for
 * every host match".
 */
function appliesTo(acl: AclBinding, principal: string, host: string): boolean {
  return (
    (acl.principal === principal || acl.principal === ACL_WILDCARD_PRINCIPAL) &&
    (acl.host === ACL_WILDCARD || normalizeHost(acl.host) === host)
  );
}

function covers(granted: AclOperation, wanted: AclOperation): boolean {
  return granted === wanted || granted === 'ALL';
}

/** Whether an ALLOW of `granted` allows `wanted`: the same operation, ALL, or one implying it. */
function grants(granted: AclOperation, wanted: AclOperation): boolean {
  return covers(granted, wanted) || IMPLIED_BY[wanted]?.includes(granted) === true;
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
