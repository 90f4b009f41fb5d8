import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file through which `serve-cluster-console.ts` tells the cluster specs about its brokers. */
export const replicationClusterInfoPath = join(
  import.meta.dirname,
  '..',
  '.test-results',
  'e2e-replication-cluster.json',
);

export type ReplicationClusterInfo = {
  /** The three client listeners, comma-separated. */
  bootstrap: string;
  /** Each broker's process id by node id (null while it is not running). */
  pids: Record<string, number | null>;
  /** `POST <controlUrl>/brokers/<id>/restart` starts a killed broker again and answers once it is ready. */
  controlUrl: string;
};

export function readReplicationClusterInfo(): ReplicationClusterInfo {
  return JSON.parse(readFileSync(replicationClusterInfoPath, 'utf8')) as ReplicationClusterInfo;
}
