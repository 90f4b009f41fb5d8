import { describe, expect, it } from 'vitest';
import type { AclBindingView } from '../../api/schemas/acls';
import type { EffectivePermissionsView } from '../../api/schemas/effective-permissions';
import { lockoutOf } from './acl-lockout';

type Reason = EffectivePermissionsView['resources'][number]['operations'][number]['reason'];

/** A view where `principal` has READ, DESCRIBE and WRITE on topic `orders` for `reason`. */
function viewOf(principal: string, reason: Reason, superUser = false): EffectivePermissionsView {
  const allowed = reason !== 'NO_MATCHING_ALLOW';
  return {
    asOfMs: 0,
    principal,
    host: '*',
    superUser,
    allowEveryoneIfNoAclFound: true,
    resources: [
      {
        resourceType: 'TOPIC',
        resourceName: 'orders',
        patternType: 'LITERAL',
        exists: true,
        operations: (['READ', 'DESCRIBE', 'WRITE'] as const).map((operation) => ({
          operation,
          allowed,
          reason,
          acls: [],
        })),
      },
    ],
  };
}

const consumeByAlice: AclBindingView[] = (['READ', 'DESCRIBE'] as const).map((operation) => ({
  resourceType: 'TOPIC',
  resourceName: 'orders',
  patternType: 'LITERAL',
  principal: 'User:alice',
  host: '*',
  operation,
  permission: 'ALLOW',
}));

describe('lockoutOf', () => {
  it('names the other principals and the operations they lose, and what the grantee loses', () => {
    const entries = lockoutOf(
      [viewOf('User:alice', 'NO_ACL_FOUND'), viewOf('User:bob', 'NO_ACL_FOUND')],
      consumeByAlice,
    );
    expect(entries).toEqual([
      { principal: 'User:alice', resourceType: 'TOPIC', resourceName: 'orders', operations: ['WRITE'] },
      {
        principal: 'User:bob',
        resourceType: 'TOPIC',
        resourceName: 'orders',
        operations: ['READ', 'DESCRIBE', 'WRITE'],
      },
    ]);
  });

  it('reports nothing where the resource has ACLs already or the principal is a super user', () => {
    expect(
      lockoutOf(
        [
          viewOf('User:bob', 'ALLOW_ACL'),
          viewOf('User:carol', 'NO_MATCHING_ALLOW'),
          viewOf('User:root', 'SUPER_USER', true),
        ],
        consumeByAlice,
      ),
    ).toEqual([]);
  });

  it('reports nothing for ACLs on another resource', () => {
    const other = consumeByAlice.map((binding) => ({ ...binding, resourceName: 'payments' }));
    expect(lockoutOf([viewOf('User:bob', 'NO_ACL_FOUND')], other)).toEqual([]);
  });

  it('counts an ACL for one host as closing the resource but granting nothing everywhere', () => {
    const fromOneHost = consumeByAlice.map((binding) => ({ ...binding, host: '10.0.0.7' }));
    expect(lockoutOf([viewOf('User:alice', 'NO_ACL_FOUND')], fromOneHost)).toEqual([
      {
        principal: 'User:alice',
        resourceType: 'TOPIC',
        resourceName: 'orders',
        operations: ['READ', 'DESCRIBE', 'WRITE'],
      },
    ]);
  });
});
