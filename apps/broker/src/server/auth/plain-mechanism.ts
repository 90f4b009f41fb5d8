import type { SaslMechanism, SaslStepResult } from './sasl-mechanism';

export const PLAIN_MECHANISM = 'PLAIN';

/** Checks a user's password against its stored SCRAM credential. */
export interface PasswordVerifier {
  verifyPassword(username: string, password: string): Promise<boolean>;
}

/** Kafka's wording, so clients and operators see the message they know. */
const REFUSED = `Authentication failed: Invalid username or password`;

/**
 * PLAIN (RFC 4616): one message `authzid NUL authcid NUL passwd`. The password is checked by
 * deriving it with the user's stored SCRAM salt and iterations; no plaintext password is stored.
 * An authorization identity other than the user itself is refused (there is no impersonation).
 */
export function plainMechanism(users: PasswordVerifier): SaslMechanism {
  return {
    name: PLAIN_MECHANISM,
    claimedUsername: (firstMessage) => {
      const parts = firstMessage.toString('utf8').split('\0');
      return parts.length === 3 && parts[1] !== '' ? parts[1] : undefined;
    },
    start: () => ({
      async step(authBytes: Buffer): Promise<SaslStepResult> {
        const parts = authBytes.toString('utf8').split('\0');
        if (parts.length !== 3) return { kind: 'rejected', errorMessage: 'Invalid SASL/PLAIN message' };
        const [authzid, username, password] = parts as [string, string, string];
        if (username.length === 0 || password.length === 0) {
          return { kind: 'rejected', errorMessage: REFUSED };
        }
        if (authzid !== '' && authzid !== username) {
          return {
            kind: 'rejected',
            errorMessage: 'Authentication failed: authorization id must be the username',
          };
        }
        if (!(await users.verifyPassword(username, password)))
          return { kind: 'rejected', errorMessage: REFUSED };
        return { kind: 'authenticated', principal: `User:${username}`, finalBytes: Buffer.alloc(0) };
      },
    }),
  };
}
