import {
  InterBrokerCredentialsError,
  loadInterBrokerCredentials,
} from '../interbroker/inter-broker-credentials';
import type { ReadTextFile } from '../server/tls/tls-material';
import type { BrokerConfig } from './broker-config';
import type { TlsFileError } from './listener-tls-files';

/**
 * Reads what `cluster.interBrokerAuthentication` needs (the cluster secret, or the internal
 * listener's certificate) as the broker will at start, so a missing or short secret file stops the
 * broker at configuration time (exit 2) with the setting's name, not at its first inter-broker call.
 */
export async function checkInterBrokerAuthentication(
  config: BrokerConfig,
  readFile: ReadTextFile,
): Promise<TlsFileError[]> {
  if (config.cluster.interBrokerAuthentication === 'token') return [];
  try {
    await loadInterBrokerCredentials(config, () => undefined, readFile);
    return [];
  } catch (error) {
    if (error instanceof InterBrokerCredentialsError) return [{ key: error.key, reason: error.reason }];
    throw error;
  }
}
