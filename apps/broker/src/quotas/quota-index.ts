import type { ClientQuotaEntity, ClientQuotaRecord } from '../metadata/metadata-store';
import { type ClientQuotaKey, entityLabel } from './quota-entity';

/** The configured entity whose value applies to a client, and what its usage is measured under. */
export interface ResolvedQuota {
  /** The quota bound: bytes per second, or a percentage of one handler's time. */
  readonly bound: number;
  /** The configured entity it comes from, e.g. `user=<default>,client-id=<default>`. */
  readonly entity: string;
  /**
   * Which clients share one measured rate: the entity's types take the client's own names, so a
   * default entity gives every user (client id) its own rate, and an entity without a client-id
   * type is shared by all client ids of its user, as in Kafka.
   */
  readonly rateKey: string;
}

/**
 * The configured quotas of one key, indexed for lookup on every request. Kafka's precedence, first
 * match wins: user and client id, user and default client id, user alone, default user and client
 * id, default user and default client id, default user alone, client id alone, default client id
 * alone (docs/architecture.md §9).
 */
export class QuotaIndex {
  readonly #bounds = new Map<string, number>();

  constructor(
    records: readonly ClientQuotaRecord[],
    readonly key: ClientQuotaKey,
  ) {
    for (const record of records) {
      const bound = record.values[key];
      if (bound !== undefined) this.#bounds.set(entityLabel(record.entity), bound);
    }
  }

  get isEmpty(): boolean {
    return this.#bounds.size === 0;
  }

  /** The quota of a (user, client id), or undefined when no configured entity applies. */
  resolve(user: string, clientId: string): ResolvedQuota | undefined {
    if (this.#bounds.size === 0) return undefined;
    for (const candidate of candidatesFor(user, clientId)) {
      const entity = entityLabel(candidate);
      const bound = this.#bounds.get(entity);
      if (bound === undefined) continue;
      const userPart = candidate.user === undefined ? '' : user;
      const clientPart = candidate.clientId === undefined ? '' : clientId;
      return { bound, entity, rateKey: `${entity}\u0000${userPart}\u0000${clientPart}` };
    }
    return undefined;
  }
}

/** The entities that could apply to a (user, client id), in Kafka's order of precedence. */
function candidatesFor(user: string, clientId: string): ClientQuotaEntity[] {
  return [
    { user, clientId },
    { user, clientId: null },
    { user },
    { user: null, clientId },
    { user: null, clientId: null },
    { user: null },
    { clientId },
    { clientId: null },
  ];
}
