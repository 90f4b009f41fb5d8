/**
 * How a client authenticates right after it learns the broker's API versions, on every connection
 * it opens. `WEIR-TOKEN` is the shared token of the broker's internal listener (the admin gateway
 * and other brokers use it); PLAIN and SCRAM authenticate a user of a SASL client listener.
 * PLAIN sends the password itself, so it belongs on TLS (SASL_SSL); SCRAM never sends it.
 */
export type SaslOptions =
  | {
      readonly mechanism: 'WEIR-TOKEN';
      /**
       * The internal listener's token (`listeners.internal.token` on the broker), or empty when the
       * client certificate (`tls.cert`) is one the broker trusts in its place
       * (`listeners.internal.trustedCertificatePrincipals`).
       */
      readonly token: string;
      /**
       * Act on behalf of this principal (`User:<name>`): the broker makes it the connection's
       * principal and applies its ACLs, as the console does for its logged-in user.
       */
      readonly actAs?: string;
    }
  | {
      readonly mechanism: 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';
      readonly username: string;
      readonly password: string;
    };
