import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderElectionPermission } from '../src/server/api/schemas/leader-elections';
import { SECURE_ADMIN, type SecureGateway, startGatewayWithClusterReader } from './secure-gateway-fixture';

/*
 * Who may elect leaders: the election runs as the logged-in user, so the broker's ACLs decide. A
 * user who may only describe the cluster is told elections are not for them (allowedActions) and
 * is refused with 403 and the Kafka code; the admin is offered them and gets the broker's answer.
 */

const READER = { username: 'reader', password: 'reader-elect-secret-7c2e' };

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startGatewayWithClusterReader(READER);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

describe('leader election permissions', () => {
  it('refuses a read-only user with 403 and CLUSTER_AUTHORIZATION_FAILED', async () => {
    const permission = await gateway.restAs(READER, 'GET', '/leaders/permission');
    expect(permission.status).toBe(200);
    const body = (await permission.json()) as LeaderElectionPermission;
    expect(body.allowedActions.elect).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(body.allowedActions.elect.reason).toContain('User:reader may not ALTER on the cluster');

    for (const payload of [
      { type: 'preferred', partitions: [{ topic: 'orders', partition: 0 }] },
      { type: 'preferred' },
    ]) {
      const refused = await gateway.restAs(READER, 'POST', '/leaders/elect', payload);
      expect(refused.status, JSON.stringify(payload)).toBe(403);
      expect(await refused.json()).toMatchObject({ data: { brokerError: 'CLUSTER_AUTHORIZATION_FAILED' } });
    }
  });

  it('lets the admin elect: a standalone broker’s only replica already leads', async () => {
    const permission = await gateway.restAs(SECURE_ADMIN, 'GET', '/leaders/permission');
    expect(((await permission.json()) as LeaderElectionPermission).allowedActions.elect.allowed).toBe(true);
    const answer = await gateway.restAs(SECURE_ADMIN, 'POST', '/leaders/elect', {
      type: 'preferred',
      partitions: [{ topic: 'orders', partition: 0 }],
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      results: [{ topic: 'orders', partition: 0, result: 'not-needed', errorCode: 'ELECTION_NOT_NEEDED' }],
      elected: 0,
      notNeeded: 1,
      failed: 0,
    });
  });
});
