import type { SaslOptions } from './sasl-options';

/**
 * The client's side of one SASL exchange: the bytes of the first SaslAuthenticate request, then
 * what to answer each broker reply with, until the mechanism has nothing more to send. PLAIN and
 * SCRAM join WEIR-TOKEN here, one case each.
 */
export interface SaslClientExchange {
  readonly mechanism: string;
  initialBytes(): Buffer;
  /** The next request's bytes for the broker's reply, or undefined when the exchange is complete. */
  next(serverBytes: Buffer): Buffer | undefined;
}

/** Starts the exchange for the configured mechanism. */
export function saslClientExchange(options: SaslOptions): SaslClientExchange {
  switch (options.mechanism) {
    case 'WEIR-TOKEN':
      // One round: the token itself; the broker's success reply carries nothing to answer.
      return {
        mechanism: options.mechanism,
        initialBytes: () => Buffer.from(options.token, 'utf8'),
        next: () => undefined,
      };
  }
}
