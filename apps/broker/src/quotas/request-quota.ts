import type { ClientQuotas } from './client-quotas';
import { quotaUserOf } from './quota-entity';

/**
 * The client quotas of one request's sender (its user and client id), as its handler uses them,
 * bound like `RequestAccess` binds authorization. On a listener without quotas (the internal one,
 * where the console and other brokers connect) every answer is unlimited and nothing is measured.
 */
export class RequestQuota {
  readonly #user: string;
  readonly #clientId: string;

  constructor(
    private readonly quotas: ClientQuotas | undefined,
    principal: string,
    clientId: string | null,
  ) {
    this.#user = quotaUserOf(principal);
    this.#clientId = clientId ?? '';
  }

  /** Records a Produce request's bytes; the throttle time in milliseconds (0 within the quota). */
  produced(requestBytes: number): number {
    return this.quotas?.produce.recordAndGetThrottleMs(this.#user, this.#clientId, requestBytes) ?? 0;
  }

  /** The most one Fetch answer may carry within the consumer's quota (Infinity without one). */
  fetchMaxBytes(): number {
    return this.quotas?.fetch.maxValueInWindow(this.#user, this.#clientId) ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Records a Fetch answer's bytes; the throttle time. The answer still goes out whole and the
   * connection is muted after it (Kafka instead sends an over-quota answer empty and takes its bytes
   * back, which never makes progress when a single batch is larger than the quota allows in a
   * window: reads are whole batches, so the same batch would be refused forever).
   */
  fetched(responseBytes: number): number {
    return this.quotas?.fetch.recordAndGetThrottleMs(this.#user, this.#clientId, responseBytes) ?? 0;
  }

  /**
   * Records handler time against request_percentage; the throttle time. Kafka's unit is percent of
   * one handler thread, so a millisecond is 0.1 percent-seconds.
   */
  handled(handlerMs: number): number {
    return this.quotas?.request.recordAndGetThrottleMs(this.#user, this.#clientId, handlerMs / 10) ?? 0;
  }

  /** Records time spent after the throttle was decided (encoding the answer), judged next time. */
  alsoSpent(handlerMs: number): void {
    this.quotas?.request.record(this.#user, this.#clientId, handlerMs / 10);
  }
}
