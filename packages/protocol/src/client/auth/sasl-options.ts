/**
 * How a client authenticates right after it learns the broker's API versions, on every connection
 * it opens. `WEIR-TOKEN` is the shared token of the broker's internal listener (the admin gateway
 * and other brokers use it); PLAIN and SCRAM users come with the security work.
 */
export type SaslOptions = {
  readonly mechanism: 'WEIR-TOKEN';
  /** The internal listener's token (`listeners.internal.token` on the broker). */
  readonly token: string;
};
