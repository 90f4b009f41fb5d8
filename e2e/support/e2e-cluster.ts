import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The file through which `serve-console.ts` tells specs where the broker it started listens.
 * Specs use the client bootstrap for the SDK (producers, group consumers) just as an application
 * would, while the browser goes through the console.
 */
export const clusterInfoPath = join(import.meta.dirname, '..', '.test-results', 'e2e-cluster.json');

export type ClusterInfo = {
  /** The client listener, `127.0.0.1:<port>`. */
  bootstrap: string;
  /** The internal listener the console's gateway uses. */
  internalBootstrap: string;
  /** Its WEIR-TOKEN, for specs that read what only the internal listener tells (the log cleaner's state). */
  internalToken: string;
};

export function readClusterInfo(): ClusterInfo {
  return JSON.parse(readFileSync(clusterInfoPath, 'utf8')) as ClusterInfo;
}
