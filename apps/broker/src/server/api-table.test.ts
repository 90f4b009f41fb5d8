import {
  AlterPartitionReassignments,
  ApiVersions,
  DescribeProducers,
  DescribeTransactions,
  INTERNAL_APIS,
  ListPartitionReassignments,
  ListTransactions,
  SaslAuthenticate,
  SaslHandshake,
  WriteTxnMarkers,
} from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { clientListenerHandlers, internalListenerHandlers } from './api-table';
import type { ApiHandler } from './handler';
import { HandlerRegistry } from './handler-registry';

/** Each served API's name with its version range, as ApiVersions would advertise it. */
function ranges(handlers: readonly ApiHandler[]): Map<string, string> {
  return new Map(
    handlers.map((handler) => [handler.api.name, `${handler.versions.min}-${handler.versions.max}`]),
  );
}

/** WriteTxnMarkers is broker to broker: clients never send it, so the client listener does not serve it. */
const INTERNAL_ONLY = [
  ...INTERNAL_APIS,
  DescribeTransactions,
  ListTransactions,
  DescribeProducers,
  ListPartitionReassignments,
  AlterPartitionReassignments,
  WriteTxnMarkers,
].map((api) => api.name);
const SASL = [SaslHandshake.name, SaslAuthenticate.name];

describe('the API table', () => {
  it('gives the client listener without SASL neither the SASL APIs nor any internal one', () => {
    const served = ranges(clientListenerHandlers(false));
    for (const name of [...SASL, ...INTERNAL_ONLY]) expect(served.has(name), name).toBe(false);
    expect(served.get('Produce')).toBe('0-8');
    expect(served.get('ElectLeaders')).toBe('0-1');
  });

  it('adds SaslHandshake 0-1 and SaslAuthenticate 0-1 to the client listener with SASL, nothing else', () => {
    const without = ranges(clientListenerHandlers(false));
    const withSasl = ranges(clientListenerHandlers(true));
    expect(new Map([...withSasl].filter(([name]) => !SASL.includes(name)))).toEqual(without);
    expect(withSasl.get(SaslHandshake.name)).toBe('0-1');
    expect(withSasl.get(SaslAuthenticate.name)).toBe('0-1');
  });

  it('gives the internal listener the Kafka APIs, the internal ones, and flexible versions where they exist', () => {
    const client = ranges(clientListenerHandlers(true));
    const internal = ranges(internalListenerHandlers());
    for (const [name, range] of client) {
      const flexibleToo = {
        SaslAuthenticate: '0-2',
        DescribeClientQuotas: '0-1',
        AlterClientQuotas: '0-1',
        DescribeLogDirs: '0-4',
        ElectLeaders: '0-2',
      };
      expect(internal.get(name), name).toBe(flexibleToo[name as keyof typeof flexibleToo] ?? range);
    }
    for (const name of INTERNAL_ONLY) expect(internal.has(name), name).toBe(true);
    expect(internal.size).toBe(client.size + INTERNAL_ONLY.length);
  });

  it('builds a registry for every listener: one handler per key, each with an authorization rule', () => {
    for (const handlers of [
      clientListenerHandlers(false),
      clientListenerHandlers(true),
      internalListenerHandlers(),
    ]) {
      const registry = new HandlerRegistry(handlers);
      expect(registry.advertised().map((api) => api.apiKey)).toEqual(
        [...handlers.map((handler) => handler.api.apiKey), ApiVersions.apiKey].sort(
          (left, right) => left - right,
        ),
      );
    }
  });
});
