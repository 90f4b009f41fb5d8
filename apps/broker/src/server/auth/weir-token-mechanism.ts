import { createHash, timingSafeEqual } from 'node:crypto';
import { type SaslMechanism, type SaslStepResult, UNKNOWN_PEER } from './sasl-mechanism';

export const WEIR_TOKEN_MECHANISM = 'WEIR-TOKEN';

/** Who a connection that presented the internal listener's token acts as. */
export const INTERNAL_PRINCIPAL = 'User:weir-internal';

/**
 * Who a connection that presented the cluster secret (`cluster.secretFile`) acts as: another broker
 * of the cluster, a super user on the internal listener like {@link INTERNAL_PRINCIPAL}.
 */
export const BROKER_PRINCIPAL = 'User:weir-broker';

const REFUSED = `Authentication failed during authentication due to invalid credentials with SASL mechanism ${WEIR_TOKEN_MECHANISM}`;

/**
 * WEIR-TOKEN: one round whose bytes are the shared token in UTF-8, or `authzid NUL token` (as SASL
 * PLAIN's authorization id) when the holder acts on behalf of a user: the console acting for its
 * logged-in user names `User:<name>`, and the connection's principal becomes that user, so the
 * ACL policy applies to it as to any client (the super-user rule of the internal listener stays
 * for the bare token's principal only; acting as that principal is refused). Both sides are hashed
 * before the comparison so that it takes the same time whatever the token's length and wherever
 * the first difference is; neither the token nor what was sent ever goes into an answer or a log.
 *
 * Mutual TLS stands in for the token: a connection whose verified client certificate maps to one of
 * `trustedCertificatePrincipals` may send an empty token (empty bytes, or `authzid NUL`) and is
 * treated as if it had sent the right one. A token that is sent is always checked, certificate or
 * not: a client that presents one means it, and a wrong one is a misconfiguration to report.
 *
 * @param expectedToken the token in force, read at each attempt because a generated one is only
 *   known once the broker has started (undefined refuses every token).
 * The cluster secret, when one is configured, is a second token: it authenticates another broker as
 * {@link BROKER_PRINCIPAL}, bare only (a broker never acts for a user).
 *
 * @param trustedCertificatePrincipals `listeners.internal.trustedCertificatePrincipals`
 * @param clusterSecret the cluster secret in force (undefined: none is accepted)
 */
export function weirTokenMechanism(
  expectedToken: () => string | undefined,
  trustedCertificatePrincipals: readonly string[] = [],
  clusterSecret: () => string | undefined = () => undefined,
): SaslMechanism {
  const trusted = new Set(trustedCertificatePrincipals);
  return {
    name: WEIR_TOKEN_MECHANISM,
    start: (peer = UNKNOWN_PEER) => ({
      step: async (authBytes: Buffer): Promise<SaslStepResult> => {
        const separator = authBytes.indexOf(0);
        const token = separator < 0 ? authBytes : authBytes.subarray(separator + 1);
        if (separator < 0 && matches(token, clusterSecret())) {
          return { kind: 'authenticated', principal: BROKER_PRINCIPAL, finalBytes: Buffer.alloc(0) };
        }
        const certified =
          token.length === 0 &&
          peer.certificatePrincipal !== undefined &&
          trusted.has(peer.certificatePrincipal);
        if (!certified && !matches(token, expectedToken())) {
          return { kind: 'rejected', errorMessage: REFUSED };
        }
        if (separator < 0) {
          return { kind: 'authenticated', principal: INTERNAL_PRINCIPAL, finalBytes: Buffer.alloc(0) };
        }
        const authzid = authBytes.subarray(0, separator).toString('utf8');
        if (!isActingPrincipal(authzid)) {
          return {
            kind: 'rejected',
            errorMessage: `Authentication failed: the authorization id must be User:<name> and not ${INTERNAL_PRINCIPAL}`,
          };
        }
        return { kind: 'authenticated', principal: authzid, finalBytes: Buffer.alloc(0) };
      },
    }),
  };
}

/** A user principal other than the token's own: `User:` and a name without control characters. */
function isActingPrincipal(authzid: string): boolean {
  return (
    authzid.startsWith('User:') &&
    authzid.length > 'User:'.length &&
    authzid !== INTERNAL_PRINCIPAL &&
    authzid !== BROKER_PRINCIPAL &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    !/[\u0000-\u001f\u007f]/.test(authzid)
  );
}

/**
 * Whether `token` is the expected one. Both sides are hashed first, so the comparison takes the same
 * time whatever their lengths. An empty token never matches, even if a bad configuration ever let
 * the expected one be empty: only a trusted certificate may go without a token.
 */
function matches(token: Buffer, expected: string | undefined): boolean {
  return (
    expected !== undefined &&
    token.length > 0 &&
    timingSafeEqual(sha256(token), sha256(Buffer.from(expected, 'utf8')))
  );
}

function sha256(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}
