import type { BrokerConfig } from '../config/broker-config';
import type { StorageIo } from '../log/storage';
import { LocalMetadataStore } from './local-metadata-store';
import type { MetadataStore } from './metadata-store';

/**
 * The metadata store a broker's configuration asks for. Today that is always the local store in
 * the data directory (a single-broker cluster); cluster mode adds the etcd store behind the same
 * interface, chosen here, so nothing else in the broker names an implementation.
 */
export function metadataStoreFor(config: BrokerConfig, io: StorageIo): MetadataStore {
  return new LocalMetadataStore(io, config.dataDir, { clusterId: config.clusterId, brokerId: config.nodeId });
}
