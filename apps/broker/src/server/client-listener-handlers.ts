import type { ApiHandler } from './handler';
import { clientSaslAuthenticateHandler } from './handlers/sasl-authenticate';
import { saslHandshakeHandler } from './handlers/sasl-handshake';
import { clientHandlers } from './registry';

/**
 * What the client listener serves: the Kafka APIs, plus SaslHandshake 0–1 and SaslAuthenticate
 * 0–1 when it authenticates with SASL. A listener without SASL does not advertise them (a client
 * would take them as an invitation to authenticate).
 */
export function clientListenerHandlers(sasl: boolean): ApiHandler[] {
  return sasl
    ? ([...clientHandlers(), saslHandshakeHandler, clientSaslAuthenticateHandler] as ApiHandler[])
    : clientHandlers();
}
