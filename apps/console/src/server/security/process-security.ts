import { env } from '../../env';
import { AllowedHosts, localAddresses } from './allowed-hosts';

let processHosts: AllowedHosts | undefined;

/** The process's Host allow-list, from the environment (built on first use, after Next listens). */
export function processAllowedHosts(): AllowedHosts {
  processHosts ??= new AllowedHosts(env().allowedHosts, localAddresses);
  return processHosts;
}
