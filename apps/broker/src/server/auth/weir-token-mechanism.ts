import { createHash, timingSafeEqual } from 'node:crypto';
import type { SaslMechanism, SaslStepResult } from './sasl-mechanism';

export const WEIR_TOKEN_MECHANISM = 'WEIR-TOKEN';

/** Who a connection that presented the internal listener's token acts as. */
export const INTERNAL_PRINCIPAL = 'User:weir-internal';

/**
 * WEIR-TOKEN: one round whose bytes are the shared token in UTF-8. Both sides are hashed before the
 * comparison so that it takes the same time whatever the token's length and wherever the first
 * difference is; neither the token nor what was sent ever goes into an answer or a log.
 *
 * @param expectedToken the token in force, read at each attempt because a generated one is only
 *   known once the broker has started (undefined refuses everyone).
 */
export function weirTokenMechanism(expectedToken: () => string | undefined): SaslMechanism {
  return {
    name: WEIR_TOKEN_MECHANISM,
    start: () => ({
      step: async (authBytes: Buffer): Promise<SaslStepResult> => {
        const expected = expectedToken();
        if (
          expected !== undefined &&
          timingSafeEqual(sha256(authBytes), sha256(Buffer.from(expected, 'utf8')))
        ) {
          return { kind: 'authenticated', principal: INTERNAL_PRINCIPAL, finalBytes: Buffer.alloc(0) };
        }
        return {
          kind: 'rejected',
          errorMessage: `Authentication failed during authentication due to invalid credentials with SASL mechanism ${WEIR_TOKEN_MECHANISM}`,
        };
      },
    }),
  };
}

function sha256(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}
