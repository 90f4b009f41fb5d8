import { Admin, Client, ErrorCode, InternalAdmin } from '@weir/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { grant, PRINCIPAL_OF, secureSaslConfig, seedWorld } from './acl-fixtures';
import { type RunningBroker, startBroker } from './broker-harness';
import { weirFailure } from './internal-fixtures';

/** The console's connection to the internal listener, acting for one user. */
function actingClient(running: RunningBroker, actAs?: string): Client {
  return new Client({
    bootstrapServers: [running.internalBootstrap],
    clientId: 'act-as-test',
    sasl: { mechanism: 'WEIR-TOKEN', token: running.internalToken, ...(actAs ? { actAs } : {}) },
    retry: { maxAttempts: 1, initialBackoffMs: 10 },
  });
}

describe('acting for a user on the internal listener (WEIR-TOKEN authzid)', () => {
  let running: RunningBroker | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await running?.dispose();
    running = undefined;
  });

  it("applies the user's ACLs, not the token's super-user rule", async () => {
    running = await startBroker(secureSaslConfig());
    await seedWorld(running.broker);
    // User:granted may describe and read `data`, nothing on `victim`.
    await running.broker.commands.acls.createAcls([{ binding: grant('TOPIC', 'data', 'READ') }]);

    const acting = actingClient(running, PRINCIPAL_OF.granted);
    clients.push(acting);
    const admin = new Admin(acting);
    const internal = new InternalAdmin(acting);

    // Allowed: what the ACLs allow (READ implies DESCRIBE), and only that in lists.
    const summaries = await internal.listTopicSummaries({ limit: 100 });
    expect(summaries.topics.map((topic) => topic.name)).toEqual(['data']);
    // Refused: deleting a topic the user has no DELETE on.
    const refused = await weirFailure(admin.deleteTopics(['data']));
    expect(refused.code).toBe(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
    // Cluster-level internal commands need CLUSTER rights the user lacks.
    const users = await weirFailure(internal.listUsers());
    expect(users.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
    expect(
      running.broker.commands.topics.listTopics({ includeInternal: false }).map((t) => t.name),
    ).toContain('data');

    // Granting DELETE lets the same user delete it.
    await running.broker.commands.acls.createAcls([{ binding: grant('TOPIC', 'victim', 'DELETE') }]);
    await admin.deleteTopics(['victim']);
    expect(
      running.broker.commands.topics.listTopics({ includeInternal: false }).map((t) => t.name),
    ).not.toContain('victim');

    // The bare token is still the internal super user.
    const bare = actingClient(running);
    clients.push(bare);
    await new Admin(bare).deleteTopics(['grow']);
  });

  it('refuses acting as the internal principal', async () => {
    running = await startBroker(secureSaslConfig());
    const acting = actingClient(running, 'User:weir-internal');
    clients.push(acting);
    const failure = await weirFailure(new InternalAdmin(acting).listUsers());
    expect(failure.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
  });
});
