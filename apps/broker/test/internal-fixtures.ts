import { Admin, Client, InternalAdmin, WeirError } from '@weir/protocol';
import type { RunningBroker } from '@weir/test-broker';
import { expect } from 'vitest';

/** A client of a broker's internal listener (token over SASL) with the internal admin on it. */
export interface InternalSession {
  client: Client;
  internal: InternalAdmin;
  close(): Promise<void>;
}

export function internalSession(running: RunningBroker): InternalSession {
  const client = new Client({
    bootstrapServers: [running.internalBootstrap],
    clientId: 'internal-test',
    sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken },
  });
  return { client, internal: new InternalAdmin(client), close: () => client.close() };
}

/** A client of the client listener, with the Kafka admin on it. */
export function clientSession(running: RunningBroker): { client: Client; admin: Admin } {
  const client = new Client({ bootstrapServers: [running.bootstrap], clientId: 'data-test' });
  return { client, admin: new Admin(client) };
}

/** The WeirError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function weirFailure(promise: Promise<unknown>): Promise<WeirError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(WeirError);
  return caught as WeirError;
}
