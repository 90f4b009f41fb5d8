import type { ConnectionAuth } from '../auth/connection-auth';

/**
 * The connection's authentication with `principal` (from its client certificate) in place of the
 * listener's anonymous one. Used on SSL listeners only: on SASL_SSL the SASL identity wins, as in
 * Kafka. A Proxy rather than a wrapper class, so every other member (including getters that read
 * private fields) keeps answering from the original object as the interface grows.
 */
export function withCertificatePrincipal(auth: ConnectionAuth, principal: string): ConnectionAuth {
  // Methods are bound once, not on every request that calls them.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(auth, {
    get(target, property) {
      if (property === 'principal') return principal;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (method === undefined) {
        method = value.bind(target);
        bound.set(property, method);
      }
      return method;
    },
  });
}
