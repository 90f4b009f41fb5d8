import { describe, expect, it } from 'vitest';
import { capturedLogger } from '../../test/tls-fixtures';
import { brokerConfigSchema } from '../config/broker-config';
import { ClusterView } from '../metadata/cluster-view';
import { InterBroker } from './inter-broker';

function interBroker(input: Parameters<typeof brokerConfigSchema.parse>[0]) {
  const captured = capturedLogger();
  const broker = new InterBroker({
    config: brokerConfigSchema.parse(input),
    view: new ClusterView(1),
    internalToken: () => undefined,
    localMarkers: { writeMarkers: async () => [] },
    localMembership: { membership: async () => 'not-member' },
    localStaging: { stageOffsets: async () => [] },
    localOffsets: { applyTransactionalOffsets: async () => 0 },
    logger: captured.logger,
  });
  return {
    broker,
    warnings: () =>
      captured
        .lines()
        .filter((line) => line.level === 'warn')
        .map((line) => line.msg),
  };
}

describe('InterBroker start', () => {
  const cluster = { nodeId: 1, cluster: { etcdEndpoints: ['http://127.0.0.1:2379'] } };

  it('warns when a cluster authenticates brokers by a token nobody configured (each broker generates its own)', async () => {
    const { broker, warnings } = interBroker(cluster);
    await broker.start();
    broker.close();
    expect(warnings()).toEqual([
      expect.stringContaining('set the same listeners.internal.token on every broker'),
    ]);
  });

  it('does not warn with a configured token, or standalone', async () => {
    for (const input of [
      { ...cluster, listeners: { internal: { token: 'the-same-token-on-every-broker' } } },
      { nodeId: 1 },
    ]) {
      const { broker, warnings } = interBroker(input);
      await broker.start();
      broker.close();
      expect(warnings()).toEqual([]);
    }
  });
});
