/**
 * Kafka's ACL model (KIP-11, prefixed patterns from KIP-290) as names, with the wire ids beside
 * them. The broker stores and reasons in names; ids appear only where a message is encoded or
 * decoded, so a wrong id cannot leak into the policy.
 *
 * This file imports nothing: the package's browser-safe entry point (`@weir/protocol/names`,
 * src/names.ts) exports its name lists, which the console's forms load without the rest of the SDK.
 */

/**
 * Resources an ACL can protect, in Kafka's id order. DELEGATION_TOKEN and USER exist in Kafka but
 * are not served.
 */
export const ACL_RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID'] as const;
export type AclResourceType = (typeof ACL_RESOURCE_TYPES)[number];
/** LITERAL names one resource (or every one, with `*`); PREFIXED every name starting with it. */
export const ACL_PATTERN_TYPES = ['LITERAL', 'PREFIXED'] as const;
export type AclPatternType = (typeof ACL_PATTERN_TYPES)[number];
/**
 * Every operation an ACL can name, in Kafka's id order (ANY is only for filters): the one list
 * that parsers, schemas and menus take their choices from.
 */
export const ACL_OPERATIONS = [
  'ALL',
  'READ',
  'WRITE',
  'CREATE',
  'DELETE',
  'ALTER',
  'DESCRIBE',
  'CLUSTER_ACTION',
  'DESCRIBE_CONFIGS',
  'ALTER_CONFIGS',
  'IDEMPOTENT_WRITE',
] as const;
export type AclOperation = (typeof ACL_OPERATIONS)[number];
/** Whether an ACL grants or refuses its operation (DENY wins); ALLOW first, as forms offer them. */
export const ACL_PERMISSIONS = ['ALLOW', 'DENY'] as const;
export type AclPermission = (typeof ACL_PERMISSIONS)[number];

/** The only name of the CLUSTER resource (Kafka's `kafka-cluster`). */
export const CLUSTER_RESOURCE_NAME = 'kafka-cluster';
/** A LITERAL resource name or host that matches every one. */
export const ACL_WILDCARD = '*';
/** The principal that matches every principal. */
export const ACL_WILDCARD_PRINCIPAL = 'User:*';

/** One ACL: who (principal, host) may or may not do what (operation) to which resources. */
export interface AclBinding {
  readonly resourceType: AclResourceType;
  readonly resourceName: string;
  readonly patternType: AclPatternType;
  /** `User:<name>`, or {@link ACL_WILDCARD_PRINCIPAL}. */
  readonly principal: string;
  /** An address, or {@link ACL_WILDCARD}. */
  readonly host: string;
  readonly operation: AclOperation;
  readonly permission: AclPermission;
}

/**
 * Which ACLs a describe or delete means. Null and ANY match everything. The pattern type MATCH
 * selects every ACL that applies to the named resource: its LITERAL ACLs, the `*` ACLs and the
 * PREFIXED ACLs whose prefix the name starts with.
 */
export interface AclBindingFilter {
  readonly resourceType: AclResourceType | 'ANY';
  readonly resourceName: string | null;
  readonly patternType: AclPatternType | 'ANY' | 'MATCH';
  readonly principal: string | null;
  readonly host: string | null;
  readonly operation: AclOperation | 'ANY';
  readonly permission: AclPermission | 'ANY';
}

/** A filter that matches every ACL; callers narrow it with a spread. */
export const MATCH_ALL_ACLS: AclBindingFilter = {
  resourceType: 'ANY',
  resourceName: null,
  patternType: 'ANY',
  principal: null,
  host: null,
  operation: 'ANY',
  permission: 'ANY',
};

/** Kafka's `ResourceType` ids (UNKNOWN 0, ANY 1). */
export const ACL_RESOURCE_TYPE_IDS = {
  ANY: 1,
  TOPIC: 2,
  GROUP: 3,
  CLUSTER: 4,
  TRANSACTIONAL_ID: 5,
} as const satisfies Record<AclResourceType | 'ANY', number>;

/** Kafka's `PatternType` ids (UNKNOWN 0). */
export const ACL_PATTERN_TYPE_IDS = {
  ANY: 1,
  MATCH: 2,
  LITERAL: 3,
  PREFIXED: 4,
} as const satisfies Record<AclPatternType | 'ANY' | 'MATCH', number>;

/** Kafka's `AclOperation` ids (UNKNOWN 0). */
export const ACL_OPERATION_IDS = {
  ANY: 1,
  ALL: 2,
  READ: 3,
  WRITE: 4,
  CREATE: 5,
  DELETE: 6,
  ALTER: 7,
  DESCRIBE: 8,
  CLUSTER_ACTION: 9,
  DESCRIBE_CONFIGS: 10,
  ALTER_CONFIGS: 11,
  IDEMPOTENT_WRITE: 12,
} as const satisfies Record<AclOperation | 'ANY', number>;

/** Kafka's `AclPermissionType` ids (UNKNOWN 0). */
export const ACL_PERMISSION_IDS = {
  ANY: 1,
  DENY: 2,
  ALLOW: 3,
} as const satisfies Record<AclPermission | 'ANY', number>;

/** The name of a wire id in one of the tables above; undefined for UNKNOWN and ids Weir lacks. */
export function aclNameOf<K extends string>(ids: Readonly<Record<K, number>>, id: number): K | undefined {
  for (const [name, candidate] of Object.entries(ids) as [K, number][]) {
    if (candidate === id) return name;
  }
  return undefined;
}

/** Two bindings that are the same ACL (creating an existing one changes nothing, as in Kafka). */
export function sameAclBinding(left: AclBinding, right: AclBinding): boolean {
  return (
    left.resourceType === right.resourceType &&
    left.resourceName === right.resourceName &&
    left.patternType === right.patternType &&
    left.principal === right.principal &&
    left.host === right.host &&
    left.operation === right.operation &&
    left.permission === right.permission
  );
}
