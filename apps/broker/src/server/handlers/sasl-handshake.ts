import { SaslHandshake } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * SaslHandshake, v1 only: the client names a mechanism and learns the listener's. Only v1 is
 * served so every exchange that follows is framed as SaslAuthenticate requests; v0's raw SASL
 * frames would need a second framing in the connection. (librdkafka 2.0 enables SASL only when v0
 * is in range too, kafka-compat §1.2; that matters once PLAIN and SCRAM reach client listeners.)
 */
export const saslHandshakeHandler = defineHandler({
  api: SaslHandshake,
  versions: { min: 1, max: 1 },
  async handle(request, context) {
    return context.auth.handshake(request.mechanism);
  },
});
