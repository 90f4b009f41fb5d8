import { Admin, Client, InternalAdmin } from '@weir/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pollUntil } from '../group-fixtures';
import { ADMIN } from '../sasl-fixtures';
import { type ClusterBroker, startBrokerCluster } from './broker-cluster';
import { startEtcd } from './etcd-process';

/** A SCRAM client of one broker's client listener, closed when the test ends. */
function clientOf(broker: ClusterBroker, username: string, password: string): Admin {
  const client = new Client({
    bootstrapServers: [broker.bootstrap],
    clientId: `cluster-security-${username}`,
    sasl: { mechanism: 'SCRAM-SHA-256', username, password },
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
  onTestFinished(() => client.close());
  return new Admin(client);
}

describe('users and ACLs in a cluster', { timeout: 180_000 }, () => {
  it('enforces a user and an ACL made through one broker on every other broker', async () => {
    const etcd = await startEtcd();
    onTestFinished(() => etcd.stop());
    const cluster = await startBrokerCluster({
      etcd,
      brokers: 3,
      config: {
        listeners: { client: { securityProtocol: 'SASL_PLAINTEXT' } },
        security: {
          bootstrapAdmin: { ...ADMIN },
          superUsers: [`User:${ADMIN.username}`],
          allowEveryoneIfNoAclFound: false,
          authFailureDelayMs: 0,
        },
      },
    });
    onTestFinished(() => cluster.stop());
    const [first, , third] = cluster.brokers as [ClusterBroker, ClusterBroker, ClusterBroker];

    // The user is made on broker 1 (over its internal listener, as the console does).
    const internal = new Client({
      bootstrapServers: [first.internalAddress],
      clientId: 'cluster-security-internal',
      sasl: { mechanism: 'WEIR-TOKEN', token: cluster.internalToken },
    });
    onTestFinished(() => internal.close());
    await new InternalAdmin(internal).upsertUser({
      username: 'alice',
      mechanism: 'SCRAM-SHA-256',
      password: 'alice-pass-1',
    });
    await clientOf(first, ADMIN.username, ADMIN.password).createTopics([{ name: 'orders', partitions: 3 }]);

    // Broker 3 knows alice as soon as the watch brings her, and hides the topic she may not see.
    const alice = clientOf(third, 'alice', 'alice-pass-1');
    expect(
      await pollUntil(() => alice.listTopics().catch(() => undefined), 'alice to log in on broker 3'),
    ).toEqual([]);

    await clientOf(first, ADMIN.username, ADMIN.password).createAcls([
      {
        resourceType: 'TOPIC',
        resourceName: 'orders',
        patternType: 'LITERAL',
        principal: 'User:alice',
        host: '*',
        operation: 'DESCRIBE',
        permission: 'ALLOW',
      },
    ]);
    await pollUntil(
      async () => (await alice.listTopics()).includes('orders'),
      'the ACL made on broker 1 to be enforced on broker 3',
    );
  });
});
