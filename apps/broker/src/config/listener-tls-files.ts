import { type ReadTextFile, readTlsMaterial } from '../server/tls/tls-material';
import type { BrokerConfig } from './broker-config';

/** A TLS file problem, keyed by its dotted setting (`listeners.client.tls.certFile`). */
export interface TlsFileError {
  readonly key: string;
  readonly reason: string;
}

/**
 * Reads every TLS file the listeners name and reports each unreadable or unparsable one by its key,
 * so a typo in a path stops the broker at configuration time (exit 2) instead of at the first
 * handshake. Runs only on a configuration that passed the schema.
 */
export async function checkListenerTlsFiles(
  config: BrokerConfig,
  readFile: ReadTextFile,
): Promise<TlsFileError[]> {
  const errors: TlsFileError[] = [];
  for (const name of ['client', 'internal'] as const) {
    const listener = config.listeners[name];
    if (listener.tls === undefined) continue;
    if (name === 'internal' && !config.listeners.internal.enabled) continue;
    const result = await readTlsMaterial(listener.tls, readFile);
    if (result.ok) continue;
    for (const problem of result.problems) {
      errors.push({ key: `listeners.${name}.tls.${problem.field}`, reason: problem.reason });
    }
  }
  return errors;
}
