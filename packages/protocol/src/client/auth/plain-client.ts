import type { SaslClientExchange } from './sasl-client-exchange';

/**
 * PLAIN (RFC 4616): one message `authzid NUL authcid NUL passwd`, with an empty authzid (act as
 * the authenticated user, as kafkajs and librdkafka do). The broker's success reply is empty.
 */
export function plainClientExchange(username: string, password: string): SaslClientExchange {
  return {
    mechanism: 'PLAIN',
    initialBytes: () => Buffer.from(`\0${username}\0${password}`, 'utf8'),
    next: async () => undefined,
  };
}
