import type { BrokerConfig } from '../config/broker-config';
import type { StorageIo } from '../log/storage';
import type { Logger } from '../logger';
import { EtcdMetadataStore } from './etcd/etcd-metadata-store';
import { LocalMetadataStore } from './local-metadata-store';
import type { MetadataStore } from './metadata-store';

/**
 * The metadata store a broker's configuration asks for: the etcd store when `cluster.etcdEndpoints`
 * names etcd (cluster mode), else the local store in the data directory (a single-broker cluster).
 * This is the one place that picks an implementation; nothing else in the broker names one.
 */
export function metadataStoreFor(
  config: BrokerConfig,
  io: StorageIo,
  logger: Logger,
): { store: MetadataStore; etcd: EtcdMetadataStore | undefined } {
  if (config.cluster.etcdEndpoints.length === 0) {
    const store = new LocalMetadataStore(io, config.dataDir, {
      clusterId: config.clusterId,
      brokerId: config.nodeId,
      eventsRetention: {
        retentionMs: config.cluster.eventsRetentionMs,
        maxCount: config.cluster.eventsMaxCount,
      },
    });
    return { store, etcd: undefined };
  }
  const etcdLogger = logger.child({ component: 'etcd' });
  const etcd = new EtcdMetadataStore({
    endpoints: config.cluster.etcdEndpoints,
    clusterName: config.cluster.name,
    clusterId: config.clusterId,
    brokerId: config.nodeId,
    requestTimeoutMs: config.cluster.etcdRequestTimeoutMs,
    sessionTtlSeconds: config.cluster.sessionTtlSeconds,
    controllerTtlSeconds: config.cluster.controllerTtlSeconds,
    logger: {
      info: (fields, message) => etcdLogger.info(fields, message),
      warn: (fields, message) => etcdLogger.warn(fields, message),
      error: (fields, message) => etcdLogger.error(fields, message),
    },
  });
  return { store: etcd, etcd };
}
