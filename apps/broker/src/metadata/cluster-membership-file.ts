import { join } from 'node:path';
import { ErrorCode, WeirError } from '@weir/protocol';
import { StorageError, type StorageIo } from '../log/storage';

/** The cluster a data directory belongs to, as Kafka's `meta.properties` records it. */
export interface ClusterMembership {
  clusterName: string;
  clusterId: string;
  nodeId: number;
}

const FILE_NAME = 'cluster.json';

/**
 * Binds a cluster broker's data directory to the cluster and node id it first joined, so a broker
 * pointed at another cluster (another etcd, or another cluster name in the same etcd) refuses to
 * start instead of serving its logs as that cluster's, as Kafka refuses an inconsistent cluster id
 * in `meta.properties`. Written on the first start; checked on every later one.
 */
export async function checkClusterMembership(
  io: StorageIo,
  dataDirectory: string,
  current: ClusterMembership,
): Promise<void> {
  const path = join(dataDirectory, FILE_NAME);
  let text: string | undefined;
  try {
    text = (await io.readWholeFile(path)).toString('utf8');
  } catch (error) {
    if (!(error instanceof StorageError && error.isNotFound)) throw error;
  }
  if (text === undefined) {
    await io.writeFileAtomic(path, Buffer.from(`${JSON.stringify(current, null, 2)}\n`, 'utf8'));
    return;
  }
  const stored = JSON.parse(text) as ClusterMembership;
  const describe = (membership: ClusterMembership) =>
    `cluster "${membership.clusterName}" (id ${membership.clusterId}) as node ${membership.nodeId}`;
  if (
    stored.clusterId !== current.clusterId ||
    stored.clusterName !== current.clusterName ||
    stored.nodeId !== current.nodeId
  ) {
    throw new WeirError(ErrorCode.INCONSISTENT_CLUSTER_ID, {
      detail: `the data directory ${dataDirectory} belongs to ${describe(stored)}, but this broker is configured for ${describe(current)}; point it at an empty data directory to join another cluster`,
    });
  }
}
