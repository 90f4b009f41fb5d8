import { ErrorCode } from '../errors/error-codes';
import { errorForCode } from '../errors/weir-error';
import { InitProducerId } from '../messages/apis/init-producer-id';
import type { Client } from './client';
import type { ProducerIdentity } from './producer-batch';

/**
 * The producer id and epoch of an idempotent producer, fetched with InitProducerId (no
 * transactional id) from any broker, and fetched again when a partition has to retire the current
 * one. At most one request is in flight.
 */
export class ProducerIdentitySource {
  readonly #client: Client;
  readonly #onSettled: (error: unknown) => void;
  #current: ProducerIdentity | undefined;
  #requesting = false;

  /** `onSettled` is told when a request ends: with undefined on success, else with the error. */
  constructor(client: Client, onSettled: (error: unknown) => void) {
    this.#client = client;
    this.#onSettled = onSettled;
  }

  /** The identity new sequences start under; undefined until the first answer. */
  get current(): ProducerIdentity | undefined {
    return this.#current;
  }

  /**
   * Asks for a new identity, unless the current one is not `stale` (someone renewed it already) or
   * a request is under way. Pass the current value (undefined at first) to ask for one.
   */
  renew(stale: ProducerIdentity | undefined): void {
    if (this.#requesting || this.#current !== stale) return;
    this.#requesting = true;
    this.#current = undefined;
    this.#client
      .retry(async () => {
        const body = await this.#client.send('any', InitProducerId, {
          transactionalId: null,
          transactionTimeoutMs: 60_000,
        });
        if (body.errorCode !== ErrorCode.NONE) throw errorForCode(body.errorCode, 'InitProducerId failed.');
        return { producerId: body.producerId, producerEpoch: body.producerEpoch };
      })
      .then(
        (identity) => {
          this.#current = identity;
          this.#requesting = false;
          this.#onSettled(undefined);
        },
        (error: unknown) => {
          this.#requesting = false;
          this.#onSettled(error);
        },
      );
  }
}
