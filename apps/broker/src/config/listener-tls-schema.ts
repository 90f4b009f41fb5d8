import { z } from 'zod';

/** Kafka's security.protocol names; the SASL half is S2's (saslMechanisms), the SSL half is TLS. */
export const securityProtocolSchema = z.enum(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL']);
export type SecurityProtocol = z.infer<typeof securityProtocolSchema>;

/** Whether a listener with this protocol speaks TLS. */
export function usesTls(protocol: SecurityProtocol): boolean {
  return protocol === 'SSL' || protocol === 'SASL_SSL';
}

/**
 * A listener's TLS settings (Kafka's ssl.keystore / ssl.truststore / ssl.client.auth, as PEM files).
 * The files are read and parsed when the configuration loads, so a bad path or PEM is a
 * configuration error that names the key; the broker reads them again when the listener starts.
 */
export const listenerTlsSchema = z.strictObject({
  /** The server certificate (PEM), optionally followed by its intermediates. */
  certFile: z.string().min(1),
  /** The server certificate's private key (PEM, unencrypted). Never logged or printed. */
  keyFile: z.string().min(1),
  /** CAs trusted for client certificates (PEM); required unless clientAuth is none. */
  caFile: z.string().min(1).optional(),
  /** ssl.client.auth: none, requested (a certificate is checked if sent), required. */
  clientAuth: z.enum(['none', 'requested', 'required']).default('none'),
  /** How a client certificate becomes a principal: `User:<RFC 2253 subject DN>` or `User:<CN>`. */
  principalMapping: z.enum(['dn', 'cn']).default('dn'),
  /** A connection that has not finished its TLS handshake by then is closed. */
  handshakeTimeoutMs: z.number().int().min(1).default(10_000),
});
export type ListenerTlsConfig = z.infer<typeof listenerTlsSchema>;

/** The security fields a listener may carry; the internal listener has no `securityProtocol`. */
interface ListenerSecurityInput {
  securityProtocol?: SecurityProtocol;
  tls?: ListenerTlsConfig;
}

/**
 * Cross-field rules of one listener, added to `ctx` under `path` (e.g. `['client']`):
 * SSL and SASL_SSL need `tls`; `tls` on a PLAINTEXT or SASL_PLAINTEXT listener is an error rather
 * than a warning, since an operator who wrote it expects encrypted traffic and would get cleartext;
 * verifying client certificates needs a CA, since falling back to the system's public CAs would let
 * any publicly issued certificate in.
 */
export function checkListenerSecurity(
  listener: ListenerSecurityInput,
  path: readonly string[],
  ctx: z.RefinementCtx,
): void {
  const protocol = listener.securityProtocol;
  if (protocol !== undefined && usesTls(protocol) && listener.tls === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'tls'],
      message: `required when securityProtocol is ${protocol} (certFile and keyFile)`,
    });
  }
  if (protocol !== undefined && !usesTls(protocol) && listener.tls !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'tls'],
      message: `set, but securityProtocol is ${protocol}, which is not encrypted; use ${protocol === 'PLAINTEXT' ? 'SSL' : 'SASL_SSL'} or remove tls`,
    });
  }
  if (listener.tls !== undefined && listener.tls.clientAuth !== 'none' && listener.tls.caFile === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'tls', 'caFile'],
      message: `required when clientAuth is ${listener.tls.clientAuth} (the CA that issued the client certificates)`,
    });
  }
}

/**
 * Trusting client certificates needs the handshake to ask for them and check them against a CA
 * (which `checkListenerSecurity` requires once clientAuth is not none). Without that no certificate
 * ever arrives, so the setting would silently do nothing and the console would fail to connect
 * with a bare authentication error instead of a configuration one.
 */
export function checkTrustedCertificatePrincipals(
  listener: { tls?: ListenerTlsConfig; trustedCertificatePrincipals: readonly string[] },
  path: readonly string[],
  ctx: z.RefinementCtx,
): void {
  if (listener.trustedCertificatePrincipals.length === 0) return;
  if (listener.tls === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'trustedCertificatePrincipals'],
      message: 'set, but the listener has no tls; add tls with clientAuth requested or required',
    });
  } else if (listener.tls.clientAuth === 'none') {
    ctx.addIssue({
      code: 'custom',
      path: [...path, 'trustedCertificatePrincipals'],
      message:
        'set, but tls.clientAuth is none, so no client certificate is asked for; use requested or required',
    });
  }
}
