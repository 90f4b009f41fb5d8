import { ErrorCode, WeirError } from '@weir/protocol';
import type { ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaRecord } from '../metadata/metadata-store';
import { CLIENT_QUOTA_KEYS, QUOTA_ENTITY_TYPES, WHOLE_NUMBER_QUOTA_KEYS } from './quota-entity';

/** One (type, name) pair of an entity as a client sends it; a null name is the default entity. */
export interface EntityPair {
  entityType: string;
  entityName: string | null;
}

/** One operation of an alteration as a client sends it: set `key` to `value`, or remove it. */
export interface QuotaOperation {
  key: string;
  value: number;
  remove: boolean;
}

/** One component of a describe filter (KIP-546 match types). */
export interface QuotaFilterComponent {
  entityType: string;
  matchType: number;
  match: string | null;
}

/** DescribeClientQuotas match types. */
export const MATCH_EXACT = 0;
export const MATCH_DEFAULT = 1;
export const MATCH_ANY = 2;

function invalid(detail: string): WeirError {
  return new WeirError(ErrorCode.INVALID_REQUEST, { detail });
}

const typeNames = QUOTA_ENTITY_TYPES.join(', ');

/** Reads an entity from its pairs, refusing an empty one, unknown or repeated types and empty user names. */
export function parseQuotaEntity(pairs: readonly EntityPair[]): ClientQuotaEntity {
  if (pairs.length === 0) throw invalid('the quota entity is empty: name a user, a client-id or both');
  const entity: ClientQuotaEntity = {};
  for (const { entityType, entityName } of pairs) {
    if (entityType === 'user') {
      if (entity.user !== undefined) throw invalid('the quota entity names "user" twice');
      if (entityName === '')
        throw invalid("the quota entity's user name is empty (null is the default user)");
      entity.user = entityName;
    } else if (entityType === 'client-id') {
      if (entity.clientId !== undefined) throw invalid('the quota entity names "client-id" twice');
      entity.clientId = entityName;
    } else {
      throw invalid(`unknown quota entity type "${entityType}" (known: ${typeNames})`);
    }
  }
  return entity;
}

/**
 * Reads one alteration: every key must be one of Kafka's client quota keys and appear once, and a
 * value set must be a positive finite number (a whole one for the byte rates, which Kafka types
 * LONG); a removed key's value is ignored, as in Kafka.
 */
export function parseQuotaAlteration(
  pairs: readonly EntityPair[],
  operations: readonly QuotaOperation[],
): ClientQuotaAlteration {
  const entity = parseQuotaEntity(pairs);
  const set: Record<string, number> = {};
  const remove: string[] = [];
  const seen = new Set<string>();
  for (const { key, value, remove: removes } of operations) {
    if (!(CLIENT_QUOTA_KEYS as readonly string[]).includes(key)) {
      throw invalid(`unknown quota key "${key}" (known: ${CLIENT_QUOTA_KEYS.join(', ')})`);
    }
    if (seen.has(key)) throw invalid(`quota key "${key}" is given twice`);
    seen.add(key);
    if (removes) {
      remove.push(key);
      continue;
    }
    if (!Number.isFinite(value) || value <= 0) {
      throw invalid(`quota "${key}" must be a positive number, got ${value}`);
    }
    if (WHOLE_NUMBER_QUOTA_KEYS.has(key) && !Number.isInteger(value)) {
      throw invalid(`quota "${key}" must be a whole number of bytes per second, got ${value}`);
    }
    set[key] = value;
  }
  return { entity, set, remove };
}

/** A parsed describe filter: which entities it selects. */
export type QuotaFilter = (entity: ClientQuotaEntity) => boolean;

/**
 * Reads a describe filter: each component selects entities whose type has the exact name (match
 * type 0), the default name (1, match null) or any name, the default included (2, match null);
 * with `strict`, entities with a type the filter does not name are left out.
 */
export function parseQuotaFilter(components: readonly QuotaFilterComponent[], strict: boolean): QuotaFilter {
  const tests: ((entity: ClientQuotaEntity) => boolean)[] = [];
  const named = new Set<string>();
  for (const { entityType, matchType, match } of components) {
    if (entityType !== 'user' && entityType !== 'client-id') {
      throw invalid(`unknown quota entity type "${entityType}" in the filter (known: ${typeNames})`);
    }
    if (named.has(entityType)) throw invalid(`the filter names entity type "${entityType}" twice`);
    named.add(entityType);
    const nameOf = (entity: ClientQuotaEntity) => (entityType === 'user' ? entity.user : entity.clientId);
    if (matchType === MATCH_EXACT) {
      if (match === null) throw invalid(`an exact match on "${entityType}" needs a name`);
      tests.push((entity) => nameOf(entity) === match);
    } else if (matchType === MATCH_DEFAULT || matchType === MATCH_ANY) {
      if (match !== null) {
        throw invalid(`match type ${matchType} on "${entityType}" takes no name, got "${match}"`);
      }
      tests.push(
        matchType === MATCH_DEFAULT
          ? (entity) => nameOf(entity) === null
          : (entity) => nameOf(entity) !== undefined,
      );
    } else {
      throw invalid(`unknown match type ${matchType} on "${entityType}" (0 exact, 1 default, 2 any)`);
    }
  }
  return (entity) => {
    if (strict) {
      if (entity.user !== undefined && !named.has('user')) return false;
      if (entity.clientId !== undefined && !named.has('client-id')) return false;
    }
    return tests.every((test) => test(entity));
  };
}

/** The stored quotas a filter selects. */
export function selectQuotas(
  records: readonly ClientQuotaRecord[],
  filter: QuotaFilter,
): ClientQuotaRecord[] {
  return records.filter((record) => filter(record.entity));
}
