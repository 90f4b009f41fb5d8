import type { MetadataStore } from '../metadata/metadata-store';

/** A broker as clients are told about it (Metadata, FindCoordinator). */
export interface BrokerEndpoint {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

/** The broker's listeners: Kafka clients on `client`, the console and other brokers on `internal`. */
export type ListenerName = 'client' | 'internal';

/**
 * The cluster's shape. In standalone mode there is one broker, which is also the controller; its
 * advertised address is known only once the listener is bound (the port may be 0 in tests). Each
 * listener has its own endpoint, and answers name the one the request came in on (Kafka's rule).
 */
export class ClusterCommands {
  constructor(
    private readonly store: MetadataStore,
    private readonly self: (listener: ListenerName) => BrokerEndpoint,
  ) {}

  describeCluster(listener: ListenerName = 'client'): {
    clusterId: string;
    controllerId: number;
    brokers: BrokerEndpoint[];
  } {
    const self = this.self(listener);
    return { clusterId: this.store.clusterId(), controllerId: self.nodeId, brokers: [self] };
  }

  /** The broker that leads every partition and coordinates every group in standalone mode. */
  localBroker(listener: ListenerName = 'client'): BrokerEndpoint {
    return this.self(listener);
  }
}
