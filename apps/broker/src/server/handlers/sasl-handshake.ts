import { SaslHandshake } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * SaslHandshake v0–1: the client names a mechanism and learns the listener's. v1 means the
 * exchange follows as SaslAuthenticate requests; v0 means raw length-prefixed SASL tokens follow,
 * which the dispatcher routes to the exchange until it ends. Both versions are advertised because
 * librdkafka 2.0 enables SASL only when its exact probes of 0 and of 1 both hit (docs/kafka-compat.md §1.2).
 */
export const saslHandshakeHandler = defineHandler({
  api: SaslHandshake,
  versions: { min: 0, max: 1 },
  async handle(request, context) {
    return context.auth.handshake(request.mechanism, context.header.apiVersion);
  },
});
