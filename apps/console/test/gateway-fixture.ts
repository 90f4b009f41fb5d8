import type { BrokerConfigInput } from '@weir/broker';
import { InternalAdmin } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import pino from 'pino';
import { type BrokerClients, createBrokerClients } from '../src/server/admin-client';
import { createCaller } from '../src/server/api/root';
import { createContextInner } from '../src/server/api/trpc';
import type { GatewayServices } from '../src/server/gateway-services';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';

/** A real broker and gateway services talking to its internal listener, as the console would. */
export interface GatewayFixture {
  readonly broker: RunningBroker;
  readonly clients: BrokerClients;
  readonly services: GatewayServices;
  readonly caller: ReturnType<typeof createCaller>;
  dispose(): Promise<void>;
}

/** `overrides` add broker settings (such as a short history sampling interval) to the fixture's. */
export async function startGateway(overrides: BrokerConfigInput = {}): Promise<GatewayFixture> {
  const broker = await startBroker({
    topics: { autoCreateEnable: false },
    groups: { initialRebalanceDelayMs: 50, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 2 },
    ...overrides,
  });
  const clients = createBrokerClients({
    bootstrap: [broker.internalBootstrap],
    token: () => broker.internalToken,
    createInternalAdmin: (client) => new InternalAdmin(client),
  });
  const services: GatewayServices = {
    broker: clients,
    logger: pino({ level: 'silent' }),
    now: Date.now,
    searchLimits: DEFAULT_SEARCH_LIMITS,
  };
  return {
    broker,
    clients,
    services,
    caller: createCaller(createContextInner({ services })),
    async dispose() {
      try {
        await clients.close();
      } finally {
        // The broker stops, and its data directory goes, even when a client fails to close.
        await broker.dispose();
      }
    },
  };
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/** Bounded wait for a condition that has no event of its own. */
export async function until(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadlineMs = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
