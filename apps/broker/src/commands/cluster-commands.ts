import type { MetadataStore } from '../metadata/metadata-store';

/** A broker as clients are told about it (Metadata, FindCoordinator). */
export interface BrokerEndpoint {
  nodeId: number;
  host: string;
  port: number;
  rack: string | null;
}

/**
 * The cluster's shape. In standalone mode there is one broker, which is also the controller; its
 * advertised address is known only once the client listener is bound (the port may be 0 in tests).
 */
export class ClusterCommands {
  constructor(
    private readonly store: MetadataStore,
    private readonly self: () => BrokerEndpoint,
  ) {}

  describeCluster(): { clusterId: string; controllerId: number; brokers: BrokerEndpoint[] } {
    const self = this.self();
    return { clusterId: this.store.clusterId(), controllerId: self.nodeId, brokers: [self] };
  }

  /** The broker that leads every partition and coordinates every group in standalone mode. */
  localBroker(): BrokerEndpoint {
    return this.self();
  }
}
