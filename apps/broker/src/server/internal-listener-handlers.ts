import type { ApiHandler } from './handler';
import { saslAuthenticateHandler } from './handlers/sasl-authenticate';
import { saslHandshakeHandler } from './handlers/sasl-handshake';
import { internalHandlers } from './internal-registry';
import { clientHandlers } from './registry';

/**
 * What the internal listener serves: the client listener's Kafka APIs, the Weir-only internal
 * APIs, and the SASL APIs its token authentication runs on.
 */
export function internalListenerHandlers(): ApiHandler[] {
  return [
    ...clientHandlers(),
    ...internalHandlers(),
    saslHandshakeHandler,
    saslAuthenticateHandler,
  ] as ApiHandler[];
}
