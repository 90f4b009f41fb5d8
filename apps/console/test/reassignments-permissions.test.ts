import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReassignmentList } from '../src/server/api/schemas/reassignments';
import { SECURE_ADMIN, type SecureGateway, startGatewayWithClusterReader } from './secure-gateway-fixture';

/*
 * Who may move partitions: the reassignment routes run as the logged-in user, so the broker's ACLs
 * decide. A user who may only describe the cluster sees the moves in progress, is told Moving is
 * not for them (allowedActions), and is refused every change with 403 and the Kafka code.
 */

const READER = { username: 'reader', password: 'reader-moves-secret-3f9a' };

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startGatewayWithClusterReader(READER);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

describe('reassignment permissions', () => {
  it('lets a read-only user list moves but refuses them every change', async () => {
    const list = await gateway.restAs(READER, 'GET', '/reassignments');
    expect(list.status).toBe(200);
    const body = (await list.json()) as ReassignmentList;
    expect(body.reassignments).toEqual([]);
    expect(body.allowedActions.reassign).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(body.allowedActions.reassign.reason).toContain('User:reader may not ALTER on the cluster');

    const changes: [string, unknown][] = [
      ['/reassignments', { moves: [{ topic: 'orders', partition: 0, replicas: [1] }] }],
      ['/reassignments/cancel', { partitions: [{ topic: 'orders', partition: 0 }] }],
    ];
    for (const [path, payload] of changes) {
      const refused = await gateway.restAs(READER, 'POST', path, payload);
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ data: { brokerError: 'CLUSTER_AUTHORIZATION_FAILED' } });
    }
  });

  it('offers moves to the admin', async () => {
    const list = await gateway.restAs(SECURE_ADMIN, 'GET', '/reassignments');
    expect(list.status).toBe(200);
    expect(((await list.json()) as ReassignmentList).allowedActions.reassign.allowed).toBe(true);
  });
});
