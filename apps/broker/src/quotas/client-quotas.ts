import { ErrorCode, WeirError } from '@weir/protocol';
import { failureOf, type ItemResult } from '../errors/item-result';
import type { ClientQuotaAlteration, ClientQuotaRecord, MetadataStore } from '../metadata/metadata-store';
import { ClientQuotaManager, type QuotaObserver } from './client-quota-manager';
import {
  type EntityPair,
  parseQuotaAlteration,
  parseQuotaFilter,
  type QuotaFilterComponent,
  type QuotaOperation,
  selectQuotas,
} from './client-quota-requests';
import { entityLabel } from './quota-entity';
import type { QuotaWindow } from './sampled-rate';

export interface ClientQuotasOptions {
  store: Pick<MetadataStore, 'listClientQuotas' | 'alterClientQuotas'>;
  window: QuotaWindow;
  nowMs: () => number;
  observer: QuotaObserver;
}

/** One entry of an alteration request, as the client sent it. */
export interface QuotaAlterationRequest {
  entity: readonly EntityPair[];
  ops: readonly QuotaOperation[];
}

/**
 * Kafka's client quotas (docs/architecture.md §9): the quotas stored in the metadata store, their
 * management (DescribeClientQuotas, AlterClientQuotas) and one manager per quota kind, which the
 * Produce and Fetch handlers and the dispatcher (for request time) record usage with.
 */
export class ClientQuotas {
  readonly produce: ClientQuotaManager;
  readonly fetch: ClientQuotaManager;
  readonly request: ClientQuotaManager;
  readonly #store: ClientQuotasOptions['store'];

  constructor(options: ClientQuotasOptions) {
    this.#store = options.store;
    const records = () => options.store.listClientQuotas();
    const common = { window: options.window, records, nowMs: options.nowMs, observer: options.observer };
    this.produce = new ClientQuotaManager({
      ...common,
      key: 'producer_byte_rate',
      maxThrottleMs: Number.POSITIVE_INFINITY,
    });
    this.fetch = new ClientQuotaManager({
      ...common,
      key: 'consumer_byte_rate',
      maxThrottleMs: Number.POSITIVE_INFINITY,
    });
    this.request = new ClientQuotaManager({
      ...common,
      key: 'request_percentage',
      maxThrottleMs: options.window.sampleMs,
    });
  }

  /** The stored quotas a DescribeClientQuotas filter selects; INVALID_REQUEST for a bad filter. */
  describe(components: readonly QuotaFilterComponent[], strict: boolean): ClientQuotaRecord[] {
    return selectQuotas(this.#store.listClientQuotas(), parseQuotaFilter(components, strict));
  }

  /**
   * Validates every entry on its own and, unless `validateOnly`, writes the valid ones in one
   * durable change; answers per entry, in request order. An entity named by two entries is refused
   * in both, since which of them should win is not said.
   */
  async alter(
    entries: readonly QuotaAlterationRequest[],
    validateOnly: boolean,
  ): Promise<ItemResult<undefined>[]> {
    const parsed: (ClientQuotaAlteration | ItemResult<undefined>)[] = entries.map((entry) => {
      try {
        return parseQuotaAlteration(entry.entity, entry.ops);
      } catch (error) {
        return failureOf(error);
      }
    });
    const counts = new Map<string, number>();
    for (const item of parsed) {
      if ('entity' in item)
        counts.set(entityLabel(item.entity), (counts.get(entityLabel(item.entity)) ?? 0) + 1);
    }
    const results = parsed.map((item): ItemResult<undefined> | ClientQuotaAlteration => {
      if (!('entity' in item)) return item;
      if (counts.get(entityLabel(item.entity))! > 1) {
        return failureOf(
          new WeirError(ErrorCode.INVALID_REQUEST, {
            detail: `the quota entity ${entityLabel(item.entity)} is altered by two entries`,
          }),
        );
      }
      return item;
    });
    const valid = results.filter((item): item is ClientQuotaAlteration => 'entity' in item);
    let written: ItemResult<undefined> = { ok: true, value: undefined };
    if (!validateOnly && valid.length > 0) {
      try {
        await this.#store.alterClientQuotas(valid);
      } catch (error) {
        written = failureOf(error);
      }
    }
    return results.map((item) => ('entity' in item ? written : item));
  }
}
