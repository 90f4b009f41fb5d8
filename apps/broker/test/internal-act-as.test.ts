import { Admin, ErrorCode, InternalAdmin } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { grant, PRINCIPAL_OF, secureBrokerPerTest } from './acl-fixtures';
import { weirFailure } from './internal-fixtures';

describe('acting for a user on the internal listener (WEIR-TOKEN authzid)', () => {
  const secure = secureBrokerPerTest();

  it("applies the user's ACLs, not the token's super-user rule", async () => {
    const running = await secure.start();
    // User:granted may describe and read `data`, nothing on `victim`.
    await running.broker.services.acls.createAcls([{ binding: grant('TOPIC', 'data', 'READ') }]);

    const acting = secure.internalClientAs(PRINCIPAL_OF.granted);
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
      running.broker.services.topicDescriptions.listTopics({ includeInternal: false }).map((t) => t.name),
    ).toContain('data');

    // Granting DELETE lets the same user delete it.
    await running.broker.services.acls.createAcls([{ binding: grant('TOPIC', 'victim', 'DELETE') }]);
    await admin.deleteTopics(['victim']);
    expect(
      running.broker.services.topicDescriptions.listTopics({ includeInternal: false }).map((t) => t.name),
    ).not.toContain('victim');

    // The bare token is still the internal super user.
    await new Admin(secure.internalClientAs()).deleteTopics(['grow']);
  });

  it('refuses acting as the internal principal', async () => {
    await secure.start();
    const acting = secure.internalClientAs('User:weir-internal');
    const failure = await weirFailure(new InternalAdmin(acting).listUsers());
    expect(failure.code).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);
  });
});
