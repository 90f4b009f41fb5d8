import type { AclBinding } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { acl } from './acl-test-support';
import { Authorizer } from './authorizer';
import { effectivePermissions } from './effective-permissions';

function policy(bindings: AclBinding[]): Authorizer {
  return new Authorizer({ superUsers: [], allowEveryoneIfNoAclFound: false, bindings: () => bindings });
}

const NONE = { topics: [], groups: [], transactionalIds: [] };

describe('effectivePermissions', () => {
  it('lists the cluster, then topics, groups and transactional ids by name, each once', () => {
    const bindings = [
      acl({ operation: 'READ', resourceName: 'b-topic' }),
      acl({ operation: 'READ', resourceName: 'a', patternType: 'PREFIXED' }),
      acl({ operation: 'READ', resourceName: 'a' }),
      acl({ operation: 'READ', resourceName: '*', resourceType: 'GROUP' }),
      acl({ operation: 'DESCRIBE', resourceName: 'kafka-cluster', resourceType: 'CLUSTER' }),
    ];
    const view = effectivePermissions(policy(bindings), 'User:alice', '*', {
      topics: ['c-topic', 'b-topic', 'a'],
      groups: ['g'],
      transactionalIds: ['tx'],
    });
    expect(
      view.map((entry) => [entry.resourceType, entry.resourceName, entry.patternType, entry.exists]),
    ).toEqual([
      ['CLUSTER', 'kafka-cluster', 'LITERAL', true],
      ['TOPIC', 'a', 'LITERAL', true],
      ['TOPIC', 'a', 'PREFIXED', false],
      ['TOPIC', 'b-topic', 'LITERAL', true],
      ['TOPIC', 'c-topic', 'LITERAL', true],
      ['GROUP', '*', 'LITERAL', false],
      ['GROUP', 'g', 'LITERAL', true],
      ['TRANSACTIONAL_ID', 'tx', 'LITERAL', true],
    ]);
  });

  it('gives every operation of the type, with the verdicts of the authorizer', () => {
    const read = acl({ operation: 'READ', resourceType: 'GROUP', resourceName: 'g' });
    const [, group] = effectivePermissions(policy([read]), 'User:alice', '*', NONE);
    expect(group!.operations).toEqual([
      { operation: 'READ', allowed: true, reason: 'ALLOW_ACL', acls: [read] },
      { operation: 'DESCRIBE', allowed: true, reason: 'ALLOW_ACL', acls: [read] },
      { operation: 'DELETE', allowed: false, reason: 'NO_MATCHING_ALLOW', acls: [] },
    ]);
  });

  it('stays fast with 5,000 topics and 5,000 ACLs (the index, not a scan per check)', () => {
    const topics = Array.from({ length: 5000 }, (_, index) => `topic-${index}`);
    const bindings = topics.map((name, index) =>
      acl({
        operation: index % 3 ? 'READ' : 'ALL',
        resourceName: name,
        permission: index % 7 ? 'ALLOW' : 'DENY',
      }),
    );
    const authorizer = policy(bindings);
    effectivePermissions(authorizer, 'User:alice', '*', NONE);
    const startedMs = performance.now();
    const view = effectivePermissions(authorizer, 'User:alice', '*', { ...NONE, topics });
    const elapsedMs = performance.now() - startedMs;
    expect(view).toHaveLength(5001);
    // Tens of milliseconds normally; the bound is loose for loaded CI machines, yet a scan of every
    // ACL per check (200 million comparisons) would exceed it by far.
    expect(elapsedMs).toBeLessThan(1500);
  });

  it('shows IDEMPOTENT_WRITE on the cluster as implied by WRITE on some topic, as the produce rule allows it', () => {
    const write = acl({ operation: 'WRITE', resourceName: 'orders-', patternType: 'PREFIXED' });
    const idempotent = (bindings: AclBinding[]) =>
      effectivePermissions(policy(bindings), 'User:alice', '*', NONE)[0]!.operations.find(
        (verdict) => verdict.operation === 'IDEMPOTENT_WRITE',
      );
    expect(idempotent([write])).toEqual({
      operation: 'IDEMPOTENT_WRITE',
      allowed: true,
      reason: 'ALLOW_ACL',
      acls: [write],
    });
    // A DENY of the same prefix leaves no topic writable, so nothing implies it.
    const deny = { ...write, permission: 'DENY' as const };
    expect(idempotent([write, deny])).toMatchObject({ allowed: false, acls: [] });
  });
});
