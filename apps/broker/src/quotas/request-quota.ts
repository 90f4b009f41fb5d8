import type { ClientQuotaManager } from './client-quota-manager';
import type { ClientQuotas } from './client-quotas';
import { quotaUserOf } from './quota-entity';

/**
 * The client quotas of one request's sender (its user and client id), as its handler uses them,
 * bound like `RequestAccess` binds authorization. On a listener without quotas (the internal one,
 * where the console and other brokers connect) every answer is unlimited and nothing is measured.
 */
export class RequestQuota {
  /** Worked out on first use: most requests meet no quota of their kind and never need it. */
  #user: string | undefined;

  constructor(
    private readonly quotas: ClientQuotas | undefined,
    private readonly principal: string,
    private readonly clientId: string | null,
  ) {}

  #throttleMs(manager: ClientQuotaManager | undefined, value: number): number {
    if (manager === undefined || !manager.hasQuotas) return 0;
    this.#user ??= quotaUserOf(this.principal);
    return manager.recordAndGetThrottleMs(this.#user, this.clientId ?? '', value);
  }

  /** Records a Produce request's bytes; the throttle time in milliseconds (0 within the quota). */
  produced(requestBytes: number): number {
    return this.#throttleMs(this.quotas?.produce, requestBytes);
  }

  /** The most one Fetch answer may carry within the consumer's quota (Infinity without one). */
  fetchMaxBytes(): number {
    const manager = this.quotas?.fetch;
    if (manager === undefined || !manager.hasQuotas) return Number.POSITIVE_INFINITY;
    this.#user ??= quotaUserOf(this.principal);
    return manager.maxValueInWindow(this.#user, this.clientId ?? '');
  }

  /**
   * Records a Fetch answer's bytes; the throttle time. The answer still goes out whole and the
   * connection is muted after it (Kafka instead sends an over-quota answer empty and takes its bytes
   * back, which never makes progress when a single batch is larger than the quota allows in a
   * window: reads are whole batches, so the same batch would be refused forever).
   */
  fetched(responseBytes: number): number {
    return this.#throttleMs(this.quotas?.fetch, responseBytes);
  }

  /**
   * Records handler time against request_percentage; the throttle time. Kafka's unit is percent of
   * one handler thread, so a millisecond is 0.1 percent-seconds.
   */
  handled(handlerMs: number): number {
    return this.#throttleMs(this.quotas?.request, handlerMs / 10);
  }

  /** Records time spent after the throttle was decided (encoding the answer), judged next time. */
  alsoSpent(handlerMs: number): void {
    const manager = this.quotas?.request;
    if (manager === undefined || !manager.hasQuotas) return;
    this.#user ??= quotaUserOf(this.principal);
    manager.record(this.#user, this.clientId ?? '', handlerMs / 10);
  }
}
