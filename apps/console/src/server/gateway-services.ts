import 'server-only';
import { type BrokerClients, processBrokerClients } from './admin-client';
import { gatewayLogger, type Logger } from './logger';
import { DEFAULT_SEARCH_LIMITS, type SearchLimits } from './services/message-search';
import type { TailLimits } from './services/message-tail';
import type { AclPolicyView } from './services/permissions/acl-policy';
import { type SchemaStore, schemaStoreOf } from './services/schema-store';

/** What procedures use, passed in through the tRPC context so tests can supply their own. */
export interface GatewayServices {
  readonly broker: BrokerClients;
  readonly logger: Logger;
  /** The clock behind every `asOfMs`. */
  readonly now: () => number;
  readonly searchLimits: SearchLimits;
  /** The live tail's caps and pacing; DEFAULT_TAIL_LIMITS when unset. */
  readonly tailLimits?: TailLimits;
  /**
   * In login mode, what the logged-in principal may do (read once per request, on first use), so
   * `allowedActions` offer only that; absent when the console runs without login.
   */
  readonly aclPolicy?: () => Promise<AclPolicyView>;
  /**
   * In login mode, called once the console has changed or deleted a user's credentials, so that
   * user's sessions opened with the old ones end at once.
   */
  readonly credentialsChanged?: (username: string) => Promise<void>;
  /**
   * The uploaded Avro/Protobuf schemas, read with the console's own clients (a logged-in user's
   * clients replace `broker`, not this); when unset, a store on `broker`.
   */
  readonly schemas?: SchemaStore;
}

/** The services' schema store. */
export function schemasOf(services: GatewayServices): SchemaStore {
  return services.schemas ?? schemaStoreOf(services.broker);
}

/** The process's services: clients configured from the environment. */
export function processGatewayServices(): GatewayServices {
  const broker = processBrokerClients();
  return {
    broker,
    schemas: schemaStoreOf(broker),
    logger: gatewayLogger(),
    now: Date.now,
    searchLimits: DEFAULT_SEARCH_LIMITS,
  };
}
