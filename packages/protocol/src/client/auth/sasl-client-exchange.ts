import { randomBytes } from 'node:crypto';
import { plainClientExchange } from './plain-client';
import type { SaslOptions } from './sasl-options';
import { scramNonce } from './scram';
import { scramClientExchange } from './scram-client';

/**
 * The client's side of one SASL exchange: the bytes of the first SaslAuthenticate request, then
 * what to answer each broker reply with, until the mechanism has nothing more to send.
 */
export interface SaslClientExchange {
  readonly mechanism: string;
  initialBytes(): Buffer;
  /**
   * The next request's bytes for the broker's reply, or undefined when the exchange is complete.
   * Rejects with a WeirError when the broker's reply cannot be trusted (SCRAM's signature).
   */
  next(serverBytes: Buffer): Promise<Buffer | undefined>;
}

/** Starts the exchange for the configured mechanism; one case per mechanism. */
export function saslClientExchange(options: SaslOptions): SaslClientExchange {
  switch (options.mechanism) {
    case 'WEIR-TOKEN':
      // One round: the token itself, after `authzid NUL` when acting for a user; the broker's
      // success reply carries nothing to answer.
      return {
        mechanism: options.mechanism,
        initialBytes: () =>
          Buffer.from(
            options.actAs === undefined ? options.token : `${options.actAs}\0${options.token}`,
            'utf8',
          ),
        next: async () => undefined,
      };
    case 'PLAIN':
      return plainClientExchange(options.username, options.password);
    case 'SCRAM-SHA-256':
    case 'SCRAM-SHA-512':
      return scramClientExchange(
        options.mechanism,
        options.username,
        options.password,
        scramNonce(randomBytes),
      );
  }
}
