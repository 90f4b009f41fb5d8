import type { ClientQuotaEntity } from '../metadata/metadata-store';

/** Kafka's quota entity types on the wire (KIP-546), in the order an entity lists them. */
export const QUOTA_ENTITY_TYPES = ['user', 'client-id'] as const;
export type QuotaEntityType = (typeof QUOTA_ENTITY_TYPES)[number];

/**
 * The quota keys Weir enforces, Kafka's names: bytes per second appended by Produce, bytes per
 * second answered by Fetch, and the percentage of one request handler's time per quota window.
 */
export const CLIENT_QUOTA_KEYS = ['producer_byte_rate', 'consumer_byte_rate', 'request_percentage'] as const;
export type ClientQuotaKey = (typeof CLIENT_QUOTA_KEYS)[number];

/** The keys Kafka defines as whole numbers (LONG), so a fractional value is refused. */
export const WHOLE_NUMBER_QUOTA_KEYS: ReadonlySet<string> = new Set([
  'producer_byte_rate',
  'consumer_byte_rate',
]);

/** How Kafka writes the default entity name in its tools; also the label of defaults in metrics. */
export const DEFAULT_ENTITY_NAME = '<default>';

/** One entity as wire pairs (type, name or null), in Kafka's type order. */
export function entityPairs(
  entity: ClientQuotaEntity,
): { entityType: QuotaEntityType; entityName: string | null }[] {
  const pairs: { entityType: QuotaEntityType; entityName: string | null }[] = [];
  if (entity.user !== undefined) pairs.push({ entityType: 'user', entityName: entity.user });
  if (entity.clientId !== undefined) pairs.push({ entityType: 'client-id', entityName: entity.clientId });
  return pairs;
}

/** A stable text form of an entity, e.g. `user=alice,client-id=<default>`: map key and metric label. */
export function entityLabel(entity: ClientQuotaEntity): string {
  return entityPairs(entity)
    .map((pair) => `${pair.entityType}=${pair.entityName ?? DEFAULT_ENTITY_NAME}`)
    .join(',');
}

/**
 * The user entity name of a principal: Kafka's quotas name users by the principal's name without
 * its type (`User:alice` is user `alice`; unauthenticated connections are `ANONYMOUS`).
 */
export function quotaUserOf(principal: string): string {
  const separator = principal.indexOf(':');
  return separator < 0 ? principal : principal.slice(separator + 1);
}
