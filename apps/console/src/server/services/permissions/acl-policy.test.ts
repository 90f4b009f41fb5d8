import type { AclBinding } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { type AclPolicyView, aclAllows, withAcls } from './acl-policy';
import { ALLOWED, denied } from './action-permission';
import { groupAllowedActions } from './group-permissions';
import { topicAllowedActions } from './topic-permissions';

function acl(overrides: Partial<AclBinding>): AclBinding {
  return {
    resourceType: 'TOPIC',
    resourceName: 'orders',
    patternType: 'LITERAL',
    principal: 'User:alice',
    host: '*',
    operation: 'READ',
    permission: 'ALLOW',
    ...overrides,
  };
}

function view(bindings: AclBinding[], overrides: Partial<AclPolicyView> = {}): AclPolicyView {
  return {
    principal: 'User:alice',
    unrestricted: false,
    allowEveryoneIfNoAclFound: false,
    bindings,
    ...overrides,
  };
}

describe('aclAllows (Kafka rules)', () => {
  it('allows what a matching ALLOW grants, and DESCRIBE implied by READ', () => {
    const policy = view([acl({})]);
    expect(aclAllows(policy, 'READ', 'TOPIC', 'orders')).toBe(true);
    expect(aclAllows(policy, 'DESCRIBE', 'TOPIC', 'orders')).toBe(true);
    expect(aclAllows(policy, 'DELETE', 'TOPIC', 'orders')).toBe(false);
    expect(aclAllows(policy, 'READ', 'TOPIC', 'orders2')).toBe(false);
  });

  it('lets DENY win over ALLOW, ALL and wildcards included', () => {
    const policy = view([
      acl({ operation: 'ALL' }),
      acl({ resourceName: '*', operation: 'DELETE', permission: 'DENY', principal: 'User:*' }),
    ]);
    expect(aclAllows(policy, 'WRITE', 'TOPIC', 'orders')).toBe(true);
    expect(aclAllows(policy, 'DELETE', 'TOPIC', 'orders')).toBe(false);
  });

  it('matches PREFIXED patterns by prefix only', () => {
    const policy = view([acl({ resourceName: 'pay-', patternType: 'PREFIXED', operation: 'DELETE' })]);
    expect(aclAllows(policy, 'DELETE', 'TOPIC', 'pay-in')).toBe(true);
    expect(aclAllows(policy, 'DELETE', 'TOPIC', 'pa')).toBe(false);
  });

  it("ignores other principals' ACLs but counts them as ACLs of the resource", () => {
    const policy = view([acl({ principal: 'User:bob', operation: 'ALL' })], {
      allowEveryoneIfNoAclFound: true,
    });
    expect(aclAllows(policy, 'READ', 'TOPIC', 'orders')).toBe(false);
    expect(aclAllows(policy, 'READ', 'TOPIC', 'unguarded')).toBe(true);
  });

  it('allows everything to an unrestricted principal', () => {
    expect(aclAllows(view([], { unrestricted: true }), 'DELETE', 'TOPIC', 'x')).toBe(true);
  });

  it('narrows a verdict and names the missing operation', () => {
    const policy = view([acl({})]);
    expect(withAcls(ALLOWED, policy, [['READ', 'TOPIC', 'orders']])).toEqual(ALLOWED);
    const refused = withAcls(ALLOWED, policy, [['DELETE', 'TOPIC', 'orders']]);
    expect(refused.allowed).toBe(false);
    expect(refused.reason).toContain('DELETE');
    expect(withAcls(ALLOWED, null, [['DELETE', 'TOPIC', 'orders']])).toEqual(ALLOWED);
  });
});

describe('what denies an action (deniedBy)', () => {
  const reader = view([acl({ principal: 'User:reader' })], { principal: 'User:reader' });

  it('is null when allowed, state for a denial of the resource, acl for one of the ACLs', () => {
    expect(ALLOWED.deniedBy).toBeNull();
    expect(denied('the group has members')).toEqual({
      allowed: false,
      reason: 'the group has members',
      deniedBy: 'state',
    });
    expect(withAcls(ALLOWED, reader, [['DELETE', 'TOPIC', 'orders']])).toEqual({
      allowed: false,
      reason: 'User:reader may not DELETE on topic orders: its ACLs do not allow it.',
      deniedBy: 'acl',
    });
    expect(withAcls(ALLOWED, reader, [['READ', 'TOPIC', 'orders']])).toEqual(ALLOWED);
  });

  it('names the first missing operation of several, the cluster included', () => {
    const refused = withAcls(ALLOWED, reader, [
      ['READ', 'TOPIC', 'orders'],
      ['ALTER', 'CLUSTER', 'kafka-cluster'],
    ]);
    expect(refused).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(refused.reason).toContain('may not ALTER on the cluster');
  });

  it('lets the ACLs win over a denial of the state, which stands when the ACLs allow', () => {
    const busy = denied('busy');
    expect(withAcls(busy, reader, [['DELETE', 'TOPIC', 'orders']]).deniedBy).toBe('acl');
    expect(withAcls(busy, reader, [['READ', 'TOPIC', 'orders']])).toBe(busy);
    expect(withAcls(busy, null, [['DELETE', 'TOPIC', 'orders']])).toBe(busy);
  });

  it('marks the topic policy: internal topics by state, a reader by its ACLs', () => {
    const internal = topicAllowedActions({ name: '__consumer_offsets', internal: true });
    expect(internal.delete).toMatchObject({ allowed: false, deniedBy: 'state' });
    expect(internal.editConfigs).toEqual(ALLOWED);
    const asReader = topicAllowedActions({ name: 'orders', internal: false }, reader);
    for (const action of ['delete', 'deleteRecords', 'addPartitions', 'editConfigs', 'produce'] as const) {
      expect(asReader[action]).toMatchObject({ allowed: false, deniedBy: 'acl' });
    }
    expect(asReader.delete.reason).toContain('User:reader may not DELETE on topic orders');
    const asSuper = topicAllowedActions(
      { name: '__consumer_offsets', internal: true },
      view([], { unrestricted: true }),
    );
    expect(asSuper.delete).toMatchObject({ allowed: false, deniedBy: 'state' });
  });

  it('marks the group policy: members by state, missing ACLs by acl even while members remain', () => {
    const busy = groupAllowedActions({ groupId: 'workers', memberCount: 2 });
    expect(busy.resetOffsets).toMatchObject({ allowed: false, deniedBy: 'state' });
    expect(busy.delete.reason).toContain('workers has 2 members');
    expect(groupAllowedActions({ groupId: 'workers', memberCount: 0 })).toEqual({
      resetOffsets: ALLOWED,
      delete: ALLOWED,
    });
    const asReader = groupAllowedActions({ groupId: 'workers', memberCount: 2 }, reader);
    expect(asReader.resetOffsets).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(asReader.delete).toMatchObject({ allowed: false, deniedBy: 'acl' });
    expect(asReader.delete.reason).toContain('may not DELETE on group workers');
  });
});
