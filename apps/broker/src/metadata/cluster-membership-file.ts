import { randomUUID } from 'node:crypto';
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

/** What the file holds: the membership, and the identity of this data directory's storage. */
interface StoredMembership extends ClusterMembership {
  /**
   * Made once, when the file is first written: a data directory that lost its contents (a new
   * disk) gets a new one, so the cluster can tell a broker that kept its logs from one that did not
   * (docs/architecture.md §6.5). Absent in files of an older Weir, and then added.
   */
  storageId?: string;
}

/**
 * Binds a cluster broker's data directory to the cluster and node id it first joined, so a broker
 * pointed at another cluster (another etcd, or another cluster name in the same etcd) refuses to
 * start instead of serving its logs as that cluster's, as Kafka refuses an inconsistent cluster id
 * in `meta.properties`. Written on the first start; checked on every later one. Resolves with the
 * data directory's storage id (Kafka's directory id, KIP-858).
 */
export async function checkClusterMembership(
  io: StorageIo,
  dataDirectory: string,
  current: ClusterMembership,
): Promise<string> {
  const path = join(dataDirectory, FILE_NAME);
  let text: string | undefined;
  try {
    text = (await io.readWholeFile(path)).toString('utf8');
  } catch (error) {
    if (!(error instanceof StorageError && error.isNotFound)) throw error;
  }
  const write = (membership: StoredMembership) =>
    io.writeFileAtomic(path, Buffer.from(`${JSON.stringify(membership, null, 2)}\n`, 'utf8'));
  if (text === undefined) {
    const storageId = randomUUID();
    await write({ ...current, storageId });
    return storageId;
  }
  const stored = JSON.parse(text) as StoredMembership;
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
  if (stored.storageId !== undefined) return stored.storageId;
  const storageId = randomUUID();
  await write({ ...stored, storageId });
  return storageId;
}
