import { MATCH_ALL_ACLS } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { weir } from './cli-runner';

// Each CLI command starts a process through tsx, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

describe('weir acl', () => {
  let running: RunningBroker;
  beforeAll(async () => {
    // The open profile: anonymous may manage ACLs while no ACL names the cluster.
    running = await startBroker();
  });
  afterAll(async () => {
    await running.dispose();
  });

  const acls = () => running.broker.services.acls.describeAcls(MATCH_ALL_ACLS);

  it('creates, lists and deletes ACLs', async () => {
    const created = await weir([
      'acl',
      'create',
      '--bootstrap-server',
      running.bootstrap,
      '--allow',
      '--principal',
      'User:alice',
      '--operation',
      'read',
      '--operation',
      'DESCRIBE',
      '--topic',
      'orders-',
      '--prefixed',
    ]);
    expect(created.stderr).toContain('Created 2 ACLs');
    expect(created.code).toBe(0);
    expect(acls().map((acl) => [acl.operation, acl.patternType, acl.resourceName])).toEqual([
      ['READ', 'PREFIXED', 'orders-'],
      ['DESCRIBE', 'PREFIXED', 'orders-'],
    ]);

    const listed = await weir([
      'acl',
      'list',
      '--bootstrap-server',
      running.bootstrap,
      '--topic',
      'orders-eu',
    ]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^PERMISSION\s+PRINCIPAL\s+HOST\s+OPERATION/);
    expect(listed.stdout).toMatch(/ALLOW\s+User:alice\s+\*\s+READ\s+TOPIC\s+orders-\s+PREFIXED/);

    const refused = await weir([
      'acl',
      'delete',
      '--bootstrap-server',
      running.bootstrap,
      '--principal',
      'User:alice',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('without --yes');
    expect(acls()).toHaveLength(2);

    const deleted = await weir([
      'acl',
      'delete',
      '--bootstrap-server',
      running.bootstrap,
      '--principal',
      'User:alice',
      '--operation',
      'READ',
      '--yes',
    ]);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain('Deleted 1 ACL.');
    expect(acls().map((acl) => acl.operation)).toEqual(['DESCRIBE']);
  });

  it('refuses two resources and an unknown operation as usage errors', async () => {
    const two = await weir([
      'acl',
      'create',
      '--bootstrap-server',
      running.bootstrap,
      '--allow',
      '--principal',
      'User:bob',
      '--operation',
      'READ',
      '--topic',
      't',
      '--group',
      'g',
    ]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('name one resource');
    const unknown = await weir([
      'acl',
      'create',
      '--bootstrap-server',
      running.bootstrap,
      '--deny',
      '--principal',
      'User:bob',
      '--operation',
      'FLY',
      '--cluster',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown operation "FLY"');
  });
});
