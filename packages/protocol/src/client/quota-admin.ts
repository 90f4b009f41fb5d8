import { ErrorCode } from '../errors/error-codes';
import { AlterClientQuotas } from '../messages/apis/alter-client-quotas';
import { DescribeClientQuotas } from '../messages/apis/describe-client-quotas';
import { type AdminItemFailure, AdminItemsError, brokerError } from './admin-error';
import type { Client } from './client';

/**
 * A client quota entity: `user`, `clientId` or both; a type left out is not part of the entity,
 * and null is that type's default entity (`<default>` in Kafka's tools).
 */
export interface ClientQuotaEntity {
  user?: string | null;
  clientId?: string | null;
}

/** One entity's quotas by Kafka's key (`producer_byte_rate`, `consumer_byte_rate`, `request_percentage`). */
export interface ClientQuotaEntry {
  entity: ClientQuotaEntity;
  values: Record<string, number>;
}

/** One component of a describe filter: an exact name, the default entity, or any entity of the type. */
export interface ClientQuotaFilterComponent {
  entityType: 'user' | 'client-id';
  match: { exact: string } | 'default' | 'any';
}

/** One entity's change: values to set, keys to remove. */
export interface ClientQuotaAlteration {
  entity: ClientQuotaEntity;
  set?: Record<string, number>;
  remove?: readonly string[];
}

type WireEntity = { entityType: string; entityName: string | null }[];

function entityToWire(entity: ClientQuotaEntity): WireEntity {
  const pairs: WireEntity = [];
  if (entity.user !== undefined) pairs.push({ entityType: 'user', entityName: entity.user });
  if (entity.clientId !== undefined) pairs.push({ entityType: 'client-id', entityName: entity.clientId });
  return pairs;
}

function entityFromWire(pairs: WireEntity): ClientQuotaEntity {
  const entity: ClientQuotaEntity = {};
  for (const pair of pairs) {
    if (pair.entityType === 'user') entity.user = pair.entityName;
    else if (pair.entityType === 'client-id') entity.clientId = pair.entityName;
  }
  return entity;
}

/** An entity as Kafka's tools print it, e.g. `user=alice,client-id=<default>`. */
export function describeQuotaEntity(entity: ClientQuotaEntity): string {
  return entityToWire(entity)
    .map((pair) => `${pair.entityType}=${pair.entityName ?? '<default>'}`)
    .join(',');
}

/** The quotas a filter selects (DescribeClientQuotas); with `strict`, only entities of exactly its types. */
export async function describeClientQuotas(
  client: Client,
  components: readonly ClientQuotaFilterComponent[],
  options: { strict?: boolean },
): Promise<ClientQuotaEntry[]> {
  const response = await client.retry(() =>
    client.send('any', DescribeClientQuotas, {
      components: components.map((component) => ({
        entityType: component.entityType,
        matchType: component.match === 'default' ? 1 : component.match === 'any' ? 2 : 0,
        match: typeof component.match === 'object' ? component.match.exact : null,
      })),
      strict: options.strict ?? false,
    }),
  );
  if (response.errorCode !== ErrorCode.NONE) {
    throw brokerError(response.errorCode, response.errorMessage, 'The client quotas could not be described.');
  }
  return (response.entries ?? []).map((entry) => ({
    entity: entityFromWire(entry.entity),
    values: Object.fromEntries(entry.values.map((value) => [value.key, value.value])),
  }));
}

/**
 * Sets and removes quotas (AlterClientQuotas). Throws an {@link AdminItemsError} naming the
 * entities that were refused; the others were changed (unless `validateOnly`).
 */
export async function alterClientQuotas(
  client: Client,
  alterations: readonly ClientQuotaAlteration[],
  options: { validateOnly?: boolean },
): Promise<void> {
  if (alterations.length === 0) return;
  const response = await client.retry(() =>
    client.send('any', AlterClientQuotas, {
      entries: alterations.map((alteration) => ({
        entity: entityToWire(alteration.entity),
        ops: [
          ...Object.entries(alteration.set ?? {}).map(([key, value]) => ({ key, value, remove: false })),
          ...(alteration.remove ?? []).map((key) => ({ key, value: 0, remove: true })),
        ],
      })),
      validateOnly: options.validateOnly ?? false,
    }),
  );
  const failures: AdminItemFailure[] = [];
  response.entries.forEach((entry, index) => {
    if (entry.errorCode === ErrorCode.NONE) return;
    failures.push({
      item: describeQuotaEntity(alterations[index]!.entity),
      error: brokerError(entry.errorCode, entry.errorMessage, 'The quota was not changed.'),
    });
  });
  if (failures.length > 0) throw new AdminItemsError('alterClientQuotas', failures, alterations.length);
}
