import {
  type AclOperation,
  type AclPatternType,
  type AclResourceType,
  CLUSTER_RESOURCE_NAME,
  OPERATIONS_BY_RESOURCE_TYPE,
} from '@weir/protocol';
import type { AclExplanation, Authorizer } from './authorizer';

/** The names of the resources the broker has now, per type (the cluster always exists). */
export interface KnownResources {
  readonly topics: readonly string[];
  readonly groups: readonly string[];
  readonly transactionalIds: readonly string[];
}

/** The order of the view: the cluster, then topics, groups and transactional ids. */
const TYPE_ORDER: readonly AclResourceType[] = ['CLUSTER', 'TOPIC', 'GROUP', 'TRANSACTIONAL_ID'];

/**
 * One resource with a verdict per operation: the SDK's `ResourcePermissions`, with the mutable
 * arrays the wire response takes, so the handler passes it on without copying 40,000 verdicts.
 */
export interface ResourceVerdicts extends ResourceEntry {
  readonly operations: ({ readonly operation: AclOperation } & AclExplanation)[];
}

interface ResourceEntry {
  readonly resourceType: AclResourceType;
  readonly resourceName: string;
  readonly patternType: AclPatternType;
  exists: boolean;
}

/**
 * What `principal` may do from `host` on every resource the broker has and every name or prefix an
 * ACL mentions, each with every operation Kafka defines for its type. The verdicts come from the
 * authorizer's own decision (its index, one lookup per resource), so they are what a request would
 * get. A PREFIXED entry's verdicts are for a name under the prefix that nothing more specific names.
 */
export function effectivePermissions(
  authorizer: Authorizer,
  principal: string,
  host: string,
  known: KnownResources,
): ResourceVerdicts[] {
  return resourceEntries(authorizer, known).map((entry) => {
    const operations = OPERATIONS_BY_RESOURCE_TYPE[entry.resourceType];
    const verdicts = authorizer.explainEach(principal, host, operations, {
      resourceType: entry.resourceType,
      name: entry.resourceName,
      patternType: entry.patternType,
    });
    return {
      resourceType: entry.resourceType,
      resourceName: entry.resourceName,
      patternType: entry.patternType,
      exists: entry.exists,
      operations: operations.map((operation, index) => {
        const verdict =
          entry.resourceType === 'CLUSTER' && operation === 'IDEMPOTENT_WRITE'
            ? idempotentWrite(authorizer, principal, host, verdicts[index]!)
            : verdicts[index]!;
        return { operation, allowed: verdict.allowed, reason: verdict.reason, acls: verdict.acls };
      }),
    };
  });
}

/**
 * IDEMPOTENT_WRITE on the cluster as an idempotent producer gets it (the broker's InitProducerId and
 * Produce rule, KIP-679): the cluster ACLs' verdict, or else WRITE on any topic or transactional id,
 * shown with the WRITE ACLs that imply it.
 */
function idempotentWrite(
  authorizer: Authorizer,
  principal: string,
  host: string,
  onCluster: AclExplanation,
): AclExplanation {
  if (onCluster.allowed) return onCluster;
  for (const type of ['TOPIC', 'TRANSACTIONAL_ID'] as const) {
    const implied = authorizer.explainAnyOfType(principal, host, 'WRITE', type);
    if (implied.allowed) return implied;
  }
  return onCluster;
}

/** The resources of the view, deduplicated, in the view's order. */
function resourceEntries(authorizer: Authorizer, known: KnownResources): ResourceEntry[] {
  const entries = new Map<string, ResourceEntry>();
  const add = (
    resourceType: AclResourceType,
    resourceName: string,
    patternType: AclPatternType,
    exists: boolean,
  ) => {
    const key = `${resourceType}\u0000${patternType}\u0000${resourceName}`;
    const entry = entries.get(key);
    if (entry === undefined) entries.set(key, { resourceType, resourceName, patternType, exists });
    else entry.exists ||= exists;
  };
  add('CLUSTER', CLUSTER_RESOURCE_NAME, 'LITERAL', true);
  for (const name of known.topics) add('TOPIC', name, 'LITERAL', true);
  for (const name of known.groups) add('GROUP', name, 'LITERAL', true);
  for (const name of known.transactionalIds) add('TRANSACTIONAL_ID', name, 'LITERAL', true);
  // Names and prefixes only ACLs mention are entries too, so a grant on a topic not created yet
  // shows. The literal `*` becomes its own entry: what every name of the type gets at least.
  for (const acl of authorizer.bindings()) add(acl.resourceType, acl.resourceName, acl.patternType, false);
  return [...entries.values()].sort(compareEntries);
}

function compareEntries(left: ResourceEntry, right: ResourceEntry): number {
  return (
    TYPE_ORDER.indexOf(left.resourceType) - TYPE_ORDER.indexOf(right.resourceType) ||
    compareText(left.resourceName, right.resourceName) ||
    // A name before the prefix of the same text: the resource itself, then what lies under it.
    (left.patternType === right.patternType ? 0 : left.patternType === 'LITERAL' ? -1 : 1)
  );
}

/** By UTF-16 code units, as the other Weir lists sort, independent of the host's locale. */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
