import { ErrorCode, WeirError } from '@weir/protocol';
import type { BrokerRegistration, BrokerSessionEvent } from '../metadata-store';
import type { EtcdConnection, EtcdLease } from './etcd-connection';
import { brokerKey } from './etcd-keys';

export interface BrokerSessionDeps {
  connection: EtcdConnection;
  ttlSeconds: number;
  /** Resolves once the image has applied `revision`. */
  applied(revision: number): Promise<void>;
  logger: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
    error(fields: object, message: string): void;
  };
  /** Retries wait this long between attempts (tests shorten it). */
  retryDelayMs?: number;
}

/**
 * A broker's registration in etcd: its `brokers/<id>` key on one lease per process, the lease id
 * being the broker's session (its broker epoch, docs/architecture.md §6.4). When the lease is lost
 * (etcd unreachable past the TTL, the process paused), the broker is told at once so it stops
 * leading, and registers again under a new lease as soon as etcd answers.
 */
export class BrokerSession {
  #lease: EtcdLease | undefined;
  #registration: BrokerRegistration | undefined;
  #template: BrokerRegistration | undefined;
  readonly #listeners = new Set<(event: BrokerSessionEvent) => void>();
  #stopped = false;

  constructor(private readonly deps: BrokerSessionDeps) {}

  get registration(): BrokerRegistration | undefined {
    return this.#registration;
  }

  onEvent(listener: (event: BrokerSessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Registers under a new lease. A live broker already registered with the same id refuses this
   * one, naming its address; a registration left by this broker's own previous process (the same
   * addresses, whose ports this process now holds) is ended at once instead of waiting for its TTL.
   */
  async register(template: BrokerRegistration): Promise<BrokerRegistration> {
    this.#template = template;
    const { connection, ttlSeconds } = this.deps;
    const key = brokerKey(template.brokerId);
    const deadlineMs = Date.now() + 2 * ttlSeconds * 1000 + 1000;
    for (;;) {
      let granted: EtcdLease | undefined;
      // A grant that fails reports 'lost' too; only a granted lease can be lost.
      granted = await connection.grantLease(ttlSeconds, (error) => {
        if (granted !== undefined) this.#lost(granted, error);
      });
      const lease = granted;
      const registration: BrokerRegistration = {
        ...template,
        sessionId: lease.id,
        registeredAtMs: Date.now(),
      };
      const result = await connection.txn(
        [{ key, target: 'Create', operator: '==', value: 0 }],
        [{ put: key, value: JSON.stringify(registration), lease: lease.id }],
        [key],
      );
      if (result.succeeded) {
        await this.deps.applied(result.revision);
        this.#lease = lease;
        this.#registration = registration;
        return registration;
      }
      await lease.revoke();
      const existing = result.current[0];
      if (existing === undefined) continue;
      const other = JSON.parse(existing.value) as BrokerRegistration;
      if (sameAddresses(other, template)) {
        // The ports are bound by this process, so whoever registered them is gone.
        this.deps.logger.info(
          { brokerId: template.brokerId, previousSession: other.sessionId },
          'ending the registration left by this broker’s previous process',
        );
        await connection.revokeLease(existing.lease).catch(() => undefined);
        continue;
      }
      if (Date.now() >= deadlineMs) {
        throw new WeirError(ErrorCode.INVALID_REQUEST, {
          detail:
            `broker id ${template.brokerId} is already registered by a live broker at ` +
            `${other.listeners.client.host}:${other.listeners.client.port}; give each broker its own nodeId`,
        });
      }
      // It may be a dead process whose lease has not expired yet; it will within the TTL.
      await delay(this.deps.retryDelayMs ?? 500);
    }
  }

  /** Ends the registration (a clean stop): the key goes with the lease. */
  async unregister(sessionId: string): Promise<void> {
    this.#stopped = true;
    if (this.#registration?.sessionId !== sessionId) return;
    await this.#lease?.revoke();
    this.#lease = undefined;
    this.#registration = undefined;
  }

  #lost(lease: EtcdLease, error: unknown): void {
    if (this.#stopped || this.#lease !== lease) return;
    const sessionId = lease.id;
    this.#lease = undefined;
    this.#registration = undefined;
    this.deps.logger.error(
      { err: error, sessionId },
      'broker session lost; not leading until registered again',
    );
    for (const listener of this.#listeners) listener({ kind: 'lost', sessionId });
    void this.#registerAgain();
  }

  async #registerAgain(): Promise<void> {
    const template = this.#template;
    if (template === undefined) return;
    while (!this.#stopped) {
      try {
        const registration = await this.register(template);
        this.deps.logger.info({ sessionId: registration.sessionId }, 'broker registered again');
        for (const listener of this.#listeners) listener({ kind: 'registered', registration });
        return;
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'registering the broker again failed; retrying');
        await delay(this.deps.retryDelayMs ?? 500);
      }
    }
  }
}

function sameAddresses(left: BrokerRegistration, right: BrokerRegistration): boolean {
  const address = (registration: BrokerRegistration) =>
    `${registration.listeners.client.host}:${registration.listeners.client.port}`;
  return address(left) === address(right);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
