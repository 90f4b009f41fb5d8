import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AclLockout } from '../src/server/api/schemas/acl-intents';
import { SECURE_ADMIN, type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

/*
 * The lockout warning of the ACL intent preview against a real broker that allows everyone where
 * no ACL is found (allow.everyone.if.no.acl.found=true): the first ACL on a topic closes it to
 * every principal it does not grant, and the preview must name them, as the broker computes it.
 */

const ALICE = { username: 'alice', password: 'alice-secret-3c1d' };
const BOB = { username: 'bob', password: 'bob-secret-8e52' };
/** Named by an ACL but no SASL user: the broker knows it only from the ACL. */
const LEGACY = 'User:svc-legacy';

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startSecureGateway({ allowEveryoneIfNoAclFound: true });
  for (const user of [ALICE, BOB]) await gateway.internal.upsertUser({ ...user, mechanism: 'SCRAM-SHA-256' });
  await gateway.admin.createTopics([
    { name: 'orders', partitions: 1 },
    { name: 'payments', partitions: 1 },
    { name: 'audit', partitions: 1 },
  ]);
  // `payments` has an ACL already, so granting on it takes nothing from anyone.
  await gateway.admin.createAcls([
    {
      resourceType: 'TOPIC',
      resourceName: 'payments',
      patternType: 'LITERAL',
      principal: LEGACY,
      host: '*',
      operation: 'READ',
      permission: 'ALLOW',
    },
  ]);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

const consume = (topic: string) => ({
  kind: 'consume' as const,
  principal: 'User:alice',
  topic,
  group: 'alice-app',
});

/** `principal TYPE:name OPS` per entry, the grantee's marked, which reads well in failures. */
function lines(lockout: AclLockout): string[] {
  return lockout.entries.map(
    (entry) =>
      `${entry.principal}${entry.grantee ? ' (grantee)' : ''} ${entry.resourceType}:${entry.resourceName} ` +
      [...entry.operations].sort().join(','),
  );
}

const EVERY_TOPIC_OPERATION = 'ALTER,ALTER_CONFIGS,CREATE,DELETE,DESCRIBE,DESCRIBE_CONFIGS,READ,WRITE';

describe('the lockout preview of an ACL intent', () => {
  it('names everyone who loses access to a topic without ACLs, but not the super user', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const { lockout } = await admin.acls.previewIntent(consume('orders'));
    expect(lockout.allowEveryoneIfNoAclFound).toBe(true);
    expect(lockout.principalsChecked).toEqual(['User:admin', 'User:alice', 'User:bob', LEGACY]);
    expect(lockout.principalsUnchecked).toBe(0);
    expect(lines(lockout)).toEqual([
      // Alice keeps READ and DESCRIBE, what the intent grants, and loses the rest.
      'User:alice (grantee) TOPIC:orders ALTER,ALTER_CONFIGS,CREATE,DELETE,DESCRIBE_CONFIGS,WRITE',
      `User:bob TOPIC:orders ${EVERY_TOPIC_OPERATION}`,
      `${LEGACY} TOPIC:orders ${EVERY_TOPIC_OPERATION}`,
    ]);
  });

  it('shows no lockout on a topic that has ACLs already', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const preview = await admin.acls.previewIntent(consume('payments'));
    expect(preview.bindings.filter((binding) => !binding.exists)).toHaveLength(3);
    expect(preview.lockout.entries).toEqual([]);
  });

  it('serves the lockout over REST, for a prefix covering the open topic', async () => {
    const response = await gateway.restAs(
      SECURE_ADMIN,
      'GET',
      '/acls/intents/preview?kind=produce&principal=User:bob&topic=ord&topicPattern=PREFIXED',
    );
    expect(response.status).toBe(200);
    const { lockout } = (await response.json()) as { lockout: AclLockout };
    expect(lines(lockout)).toEqual([
      `User:alice TOPIC:orders ${EVERY_TOPIC_OPERATION}`,
      'User:bob (grantee) TOPIC:orders ALTER,ALTER_CONFIGS,DELETE,DESCRIBE_CONFIGS,READ',
      `${LEGACY} TOPIC:orders ${EVERY_TOPIC_OPERATION}`,
    ]);
  });

  it('asks about everyone even when the grantee is a super user, whose own view shows no open topic', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const { lockout } = await admin.acls.previewIntent({ ...consume('audit'), principal: 'User:admin' });
    expect(lines(lockout)).toEqual([
      `User:alice TOPIC:audit ${EVERY_TOPIC_OPERATION}`,
      `User:bob TOPIC:audit ${EVERY_TOPIC_OPERATION}`,
      `${LEGACY} TOPIC:audit ${EVERY_TOPIC_OPERATION}`,
    ]);
  });

  it('predicts what the broker then does: once applied, bob is locked out and nothing more is', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const before = await admin.acls.effective({ principal: 'User:bob' });
    const readOrders = (view: typeof before) =>
      view.resources
        .find((resource) => resource.resourceType === 'TOPIC' && resource.resourceName === 'orders')
        ?.operations.find((verdict) => verdict.operation === 'READ');
    expect(readOrders(before)).toMatchObject({ allowed: true, reason: 'NO_ACL_FOUND' });

    expect(await admin.acls.applyIntent(consume('orders'))).toMatchObject({ created: 3 });
    expect(readOrders(await admin.acls.effective({ principal: 'User:bob' }))).toMatchObject({
      allowed: false,
      reason: 'NO_MATCHING_ALLOW',
    });
    expect((await admin.acls.previewIntent(consume('orders'))).lockout.entries).toEqual([]);
  });
});
