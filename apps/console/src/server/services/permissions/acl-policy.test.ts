import type { AclBinding } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { type AclPolicyView, aclAllows, withAcls } from './acl-policy';
import { ALLOWED } from './action-permission';

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
