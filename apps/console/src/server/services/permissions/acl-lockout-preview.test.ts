import type { AclBinding } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { AclBindingView } from '../../api/schemas/acls';
import type { EffectivePermissionsView } from '../../api/schemas/effective-permissions';
import { closesAnOpenResource, knownPrincipals } from './acl-lockout-preview';

function acl(principal: string, resourceName: string, patternType: 'LITERAL' | 'PREFIXED' = 'LITERAL') {
  return {
    resourceType: 'TOPIC',
    resourceName,
    patternType,
    principal,
    host: '*',
    operation: 'READ',
    permission: 'ALLOW',
  } satisfies AclBindingView as AclBinding;
}

/** A view with topics `orders` (no ACL names it) and `payments` (ACLs do). */
const view: EffectivePermissionsView = {
  asOfMs: 0,
  principal: 'User:alice',
  host: '*',
  superUser: false,
  allowEveryoneIfNoAclFound: true,
  resources: [
    { name: 'orders', reason: 'NO_ACL_FOUND' as const, allowed: true },
    { name: 'payments', reason: 'NO_MATCHING_ALLOW' as const, allowed: false },
  ].map(({ name, reason, allowed }) => ({
    resourceType: 'TOPIC' as const,
    resourceName: name,
    patternType: 'LITERAL' as const,
    exists: true,
    operations: [{ operation: 'READ' as const, allowed, reason, acls: [] }],
  })),
};

describe('knownPrincipals', () => {
  it('joins the SASL users and the principals ACLs name, once each, sorted, without User:*', () => {
    expect(
      knownPrincipals(
        ['carol', 'alice'],
        [acl('User:bob', 'orders'), acl('User:*', 'orders'), acl('User:alice', 'payments')],
      ),
    ).toEqual(['User:alice', 'User:bob', 'User:carol']);
  });
});

describe('closesAnOpenResource', () => {
  it('is true when a new ACL names a resource no ACL names yet, literally or by prefix', () => {
    expect(closesAnOpenResource(view, [acl('User:alice', 'orders')])).toBe(true);
    expect(closesAnOpenResource(view, [acl('User:alice', 'ord', 'PREFIXED')])).toBe(true);
    expect(closesAnOpenResource(view, [acl('User:alice', '*')])).toBe(true);
  });

  it('is false when every resource the new ACLs name has ACLs already, or none is named', () => {
    expect(closesAnOpenResource(view, [acl('User:alice', 'payments')])).toBe(false);
    expect(closesAnOpenResource(view, [acl('User:alice', 'pay', 'PREFIXED')])).toBe(false);
    expect(closesAnOpenResource(view, [])).toBe(false);
  });
});
