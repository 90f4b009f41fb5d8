import type { AclBinding, AclOperation, AclPatternType, AclResourceType } from '../acl/acl-types';

/*
 * What one principal may do, as the broker's authorizer decides it (WeirDescribeEffectivePermissions,
 * an internal-listener API). The console's effective-permissions view and `weir acl effective`
 * read it; neither re-implements the ACL rules.
 */

/**
 * Why a verdict is what it is:
 * - SUPER_USER: the principal is in `super.users`; ACLs are not consulted.
 * - DENY_ACL: a DENY ACL that applies to the principal covers the operation (DENY wins).
 * - ALLOW_ACL: an ALLOW ACL (the operation, ALL, or one implying it) applies and no DENY does.
 * - NO_ACL_FOUND: no ACL at all names the resource, so `allowEveryoneIfNoAclFound` decides.
 * - NO_MATCHING_ALLOW: ACLs name the resource, but none allows this principal the operation.
 */
export const PERMISSION_REASONS = [
  'SUPER_USER',
  'DENY_ACL',
  'ALLOW_ACL',
  'NO_ACL_FOUND',
  'NO_MATCHING_ALLOW',
] as const;
export type PermissionReason = (typeof PERMISSION_REASONS)[number];

/** One operation on one resource: the verdict and the ACLs that decided it. */
export interface OperationVerdict {
  readonly operation: AclOperation;
  readonly allowed: boolean;
  readonly reason: PermissionReason;
  /** The DENY ACLs for DENY_ACL, the allowing ACLs for ALLOW_ACL, empty otherwise. */
  readonly acls: readonly AclBinding[];
}

/** A resource and every operation Kafka defines for its type. */
export interface ResourcePermissions {
  readonly resourceType: AclResourceType;
  /** The name; for a PREFIXED entry, the prefix an ACL names (the verdicts are for names under it). */
  readonly resourceName: string;
  /** LITERAL for a resource (existing, or named by a literal ACL); PREFIXED for an ACL's prefix. */
  readonly patternType: AclPatternType;
  /** Whether the broker has the resource now (false for names and prefixes only an ACL mentions). */
  readonly exists: boolean;
  readonly operations: readonly OperationVerdict[];
}

/** The effective permissions of one principal from one host. */
export interface EffectivePermissions {
  /** `User:<name>`. */
  readonly principal: string;
  /** The client address assumed; `*` means only ACLs for every host apply. */
  readonly host: string;
  readonly superUser: boolean;
  readonly allowEveryoneIfNoAclFound: boolean;
  /** The cluster first, then topics, groups and transactional ids, each sorted by name. */
  readonly resources: readonly ResourcePermissions[];
}

/** The operations Kafka defines per resource type (what the view lists for each resource). */
export const OPERATIONS_BY_RESOURCE_TYPE: Readonly<Record<AclResourceType, readonly AclOperation[]>> = {
  CLUSTER: [
    'CREATE',
    'CLUSTER_ACTION',
    'DESCRIBE',
    'ALTER',
    'DESCRIBE_CONFIGS',
    'ALTER_CONFIGS',
    'IDEMPOTENT_WRITE',
  ],
  TOPIC: ['READ', 'WRITE', 'CREATE', 'DELETE', 'ALTER', 'DESCRIBE', 'DESCRIBE_CONFIGS', 'ALTER_CONFIGS'],
  GROUP: ['READ', 'DESCRIBE', 'DELETE'],
  TRANSACTIONAL_ID: ['DESCRIBE', 'WRITE'],
};

/** The internal admin call behind the view. */
export interface EffectivePermissionsApi {
  /**
   * What `principal` (`User:<name>`) may do from `host` (default `*`). Needs DESCRIBE on the
   * cluster unless the caller asks about itself; otherwise fails with CLUSTER_AUTHORIZATION_FAILED.
   * A principal that is not `User:<name>` fails with INVALID_REQUEST.
   */
  describeEffectivePermissions(principal: string, host?: string): Promise<EffectivePermissions>;
}
