import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTopicsAs } from '../../broker/test/sasl-fixtures';
import { rejection } from './gateway-fixture';
import { SECURE_ADMIN, type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

/*
 * ACL intents, password changes and effective permissions through the gateway, against a secure
 * broker with the console in login mode: every call runs as the logged-in user.
 */

const CAROL = { username: 'carol', password: 'carol-first-secret-81c4' };
const READER = { username: 'reader', password: 'reader-secret-0d7f' };

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startSecureGateway();
  for (const user of [CAROL, READER]) {
    await gateway.internal.upsertUser({ ...user, mechanism: 'SCRAM-SHA-256' });
  }
  // Carol also has a SCRAM-SHA-512 credential: a password change must reach both.
  await gateway.internal.upsertUser({ ...CAROL, mechanism: 'SCRAM-SHA-512', iterations: 4096 });
  await gateway.admin.createTopics([{ name: 'orders', partitions: 1 }]);
  await gateway.admin.createAcls([
    {
      resourceType: 'TOPIC',
      resourceName: '*',
      patternType: 'LITERAL',
      principal: `User:${READER.username}`,
      host: '*',
      operation: 'DESCRIBE',
      permission: 'ALLOW',
    },
  ]);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

const consumeOrders = {
  kind: 'consume' as const,
  principal: 'User:carol',
  topic: 'orders',
  group: 'g1',
};

/** `TYPE:name OPERATION exists?` per binding, which reads well in failures. */
function lines(
  bindings: readonly { resourceType: string; resourceName: string; operation: string; exists: boolean }[],
) {
  return bindings.map(
    (b) => `${b.resourceType}:${b.resourceName} ${b.operation} ${b.exists ? 'exists' : 'new'}`,
  );
}

describe('ACL intents', () => {
  it('previews, applies once, and finds everything present the second time', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const preview = await admin.acls.previewIntent(consumeOrders);
    expect(lines(preview.bindings)).toEqual([
      'TOPIC:orders READ new',
      'TOPIC:orders DESCRIBE new',
      'GROUP:g1 READ new',
    ]);
    // ACLs are required on this broker (allow.everyone.if.no.acl.found=false): nobody loses anything.
    expect(preview.lockout).toEqual({
      allowEveryoneIfNoAclFound: false,
      principalsChecked: [],
      principalsUnchecked: 0,
      entries: [],
    });

    const applied = await admin.acls.applyIntent(consumeOrders);
    expect(applied).toMatchObject({ created: 3, alreadyPresent: 0 });
    const listed = await admin.acls.list({ principal: 'User:carol' });
    expect(listed.acls.map((acl) => `${acl.resourceType}:${acl.resourceName} ${acl.operation}`)).toEqual([
      'GROUP:g1 READ',
      'TOPIC:orders DESCRIBE',
      'TOPIC:orders READ',
    ]);
    expect((await admin.acls.previewIntent(consumeOrders)).bindings.every((b) => b.exists)).toBe(true);
    expect(await admin.acls.applyIntent(consumeOrders)).toMatchObject({ created: 0, alreadyPresent: 3 });
  });

  it('creates only the missing ACLs of a produce intent that overlaps what exists', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const produce = {
      kind: 'produce' as const,
      principal: 'User:carol',
      topic: 'orders',
      transactionalId: 'carol-tx',
      idempotent: true,
    };
    expect(lines((await admin.acls.previewIntent(produce)).bindings)).toEqual([
      'TOPIC:orders WRITE new',
      'TOPIC:orders DESCRIBE exists',
      'TOPIC:orders CREATE new',
      'TRANSACTIONAL_ID:carol-tx WRITE new',
      'TRANSACTIONAL_ID:carol-tx DESCRIBE new',
      'CLUSTER:kafka-cluster IDEMPOTENT_WRITE new',
    ]);
    expect(await admin.acls.applyIntent(produce)).toMatchObject({ created: 5, alreadyPresent: 1 });
    expect((await admin.acls.list({ principal: 'User:carol' })).acls).toHaveLength(8);
  });

  it('serves REST with field-named validation, and the broker refuses a user without ALTER', async () => {
    const missingGroup = await gateway.restAs(
      SECURE_ADMIN,
      'GET',
      '/acls/intents/preview?kind=consume&principal=User:dave&topic=orders',
    );
    expect(missingGroup.status).toBe(400);
    expect((await missingGroup.json()).issues).toEqual([
      expect.objectContaining({ path: ['group'], message: 'Enter the consumer group (or a prefix).' }),
    ]);

    const preview = await gateway.restAs(
      SECURE_ADMIN,
      'GET',
      '/acls/intents/preview?kind=produce&principal=User:dave&topic=dave-&topicPattern=PREFIXED&idempotent=true',
    );
    expect(preview.status).toBe(200);
    expect((await preview.json()).bindings).toHaveLength(4);

    const intent = { kind: 'consume', principal: 'User:dave', topic: 'orders', group: 'dave-' };
    const refused = await gateway.restAs(READER, 'POST', '/acls/intents/apply', intent);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ data: { brokerError: 'CLUSTER_AUTHORIZATION_FAILED' } });
    const applied = await gateway.restAs(SECURE_ADMIN, 'POST', '/acls/intents/apply', intent);
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ created: 3, alreadyPresent: 0 });
  });
});

describe('users.setPassword', () => {
  it('sets a typed password on every mechanism: the new one works, the old one no longer', async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const typed = 'carol-second-secret-5b77';
    const result = await admin.users.setPassword({ username: 'carol', password: typed });
    expect(result).toMatchObject({
      username: 'carol',
      mechanisms: ['SCRAM-SHA-256', 'SCRAM-SHA-512'],
      generatedPassword: null,
    });
    expect(await gateway.auth.login('carol', CAROL.password)).toEqual({ kind: 'refused' });
    expect((await gateway.sessionOf('carol', typed)).username).toBe('carol');
    for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
      expect(await listTopicsAs(gateway.broker, { mechanism, username: 'carol', password: typed })).toEqual([
        'orders',
      ]);
      expect(
        await listTopicsAs(gateway.broker, { mechanism, username: 'carol', password: CAROL.password }),
      ).toMatchObject({ name: 'SASL_AUTHENTICATION_FAILED' });
    }
    // The iterations each credential had are kept.
    const users = await admin.users.list({});
    expect(users.users.find((user) => user.name === 'carol')?.credentials).toEqual([
      { mechanism: 'SCRAM-SHA-256', iterations: 8192 },
      { mechanism: 'SCRAM-SHA-512', iterations: 4096 },
    ]);
    CAROL.password = typed;
  });

  it('generates a password over REST when none is given, answering it once', async () => {
    const response = await gateway.restAs(SECURE_ADMIN, 'PUT', '/users/carol/password', {});
    expect(response.status).toBe(200);
    const { generatedPassword } = (await response.json()) as { generatedPassword: string };
    expect(generatedPassword).toMatch(/^[\w-]{32}$/);
    expect(await gateway.auth.login('carol', CAROL.password)).toEqual({ kind: 'refused' });
    expect((await gateway.sessionOf('carol', generatedPassword)).username).toBe('carol');
    CAROL.password = generatedPassword;
  });

  it('names the password field when it is too short, 404s an unknown user, 403s a non-admin', async () => {
    const short = await gateway.restAs(SECURE_ADMIN, 'PUT', '/users/carol/password', { password: 'short' });
    expect(short.status).toBe(400);
    expect((await short.json()).issues).toEqual([
      expect.objectContaining({ path: ['password'], message: 'A password has at least 8 characters.' }),
    ]);
    expect((await gateway.restAs(SECURE_ADMIN, 'PUT', '/users/nobody/password', {})).status).toBe(404);
    const refused = await gateway.restAs(READER, 'PUT', '/users/carol/password', {
      password: 'reader-takes-over',
    });
    expect(refused.status).toBe(403);
    expect((await gateway.sessionOf('carol', CAROL.password)).username).toBe('carol');

    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const error = await rejection(admin.users.setPassword({ username: 'carol', password: '1234567' }));
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
  });
});

describe('acls.effective', () => {
  it("answers the broker's verdicts with the deciding ACLs", async () => {
    const admin = await gateway.callerAs(SECURE_ADMIN.username, SECURE_ADMIN.password);
    const view = await admin.acls.effective({ principal: 'User:carol' });
    expect(view).toMatchObject({ principal: 'User:carol', host: '*', superUser: false });
    expect(view.allowEveryoneIfNoAclFound).toBe(false);
    const orders = view.resources.find((r) => r.resourceType === 'TOPIC' && r.resourceName === 'orders');
    const read = orders?.operations.find((verdict) => verdict.operation === 'READ');
    expect(read).toMatchObject({ allowed: true, reason: 'ALLOW_ACL' });
    expect(read?.acls).toEqual([expect.objectContaining({ principal: 'User:carol', operation: 'READ' })]);
    expect(orders?.operations.find((verdict) => verdict.operation === 'DELETE')).toMatchObject({
      allowed: false,
    });
    const group = view.resources.find((r) => r.resourceType === 'GROUP' && r.resourceName === 'g1');
    expect(group?.operations.find((verdict) => verdict.operation === 'READ')).toMatchObject({
      allowed: true,
      reason: 'ALLOW_ACL',
    });
    expect(view.resources[0]?.resourceType).toBe('CLUSTER');

    const adminView = await admin.acls.effective({ principal: 'User:admin' });
    expect(adminView.superUser).toBe(true);
  });

  it('lets a user see its own permissions, and refuses it anyone else’s with 403', async () => {
    const own = await gateway.restAs(READER, 'GET', '/acls/effective?principal=User:reader');
    expect(own.status).toBe(200);
    expect((await own.json()).principal).toBe('User:reader');
    const other = await gateway.restAs(READER, 'GET', '/acls/effective?principal=User:carol');
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ data: { brokerError: 'CLUSTER_AUTHORIZATION_FAILED' } });
    const invalid = await gateway.restAs(SECURE_ADMIN, 'GET', '/acls/effective?principal=carol');
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain('principal');
  });
});
