import type { AclBinding, AclOperation, AclResourceType } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { acl } from './acl-test-support';
import { Authorizer } from './authorizer';

function authorizer(bindings: AclBinding[], allowEveryoneIfNoAclFound = false, superUsers: string[] = []) {
  return new Authorizer({ superUsers, allowEveryoneIfNoAclFound, bindings: () => bindings });
}

interface Case {
  name: string;
  acls: AclBinding[];
  principal?: string;
  host?: string;
  operation: AclOperation;
  resourceType?: AclResourceType;
  resource?: string;
  allowEveryone?: boolean;
  superUsers?: string[];
  allowed: boolean;
}

const CASES: Case[] = [
  { name: 'a literal ALLOW allows', acls: [acl({ operation: 'READ' })], operation: 'READ', allowed: true },
  {
    name: 'another operation is not allowed',
    acls: [acl({ operation: 'READ' })],
    operation: 'WRITE',
    allowed: false,
  },
  {
    name: 'another principal is not allowed',
    acls: [acl({ operation: 'READ' })],
    principal: 'User:bob',
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'DENY wins over ALLOW',
    acls: [acl({ operation: 'READ' }), acl({ operation: 'READ', permission: 'DENY' })],
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'a DENY of ALL denies every operation',
    acls: [acl({ operation: 'READ' }), acl({ operation: 'ALL', permission: 'DENY', principal: 'User:*' })],
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'a DENY on a prefix wins over a literal ALLOW',
    acls: [
      acl({ operation: 'WRITE' }),
      acl({ operation: 'WRITE', permission: 'DENY', patternType: 'PREFIXED', resourceName: 'ord' }),
    ],
    operation: 'WRITE',
    allowed: false,
  },
  {
    name: 'ALL allows every operation',
    acls: [acl({ operation: 'ALL' })],
    operation: 'DELETE',
    allowed: true,
  },
  {
    name: 'a PREFIXED ALLOW covers names starting with it',
    acls: [acl({ operation: 'READ', patternType: 'PREFIXED', resourceName: 'ord' })],
    operation: 'READ',
    allowed: true,
  },
  {
    name: 'a PREFIXED ALLOW does not cover other names',
    acls: [acl({ operation: 'READ', patternType: 'PREFIXED', resourceName: 'ord' })],
    resource: 'payments',
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'a literal "*" covers every name',
    acls: [acl({ operation: 'READ', resourceName: '*' })],
    resource: 'anything',
    operation: 'READ',
    allowed: true,
  },
  {
    name: 'the wildcard principal covers everybody',
    acls: [acl({ operation: 'READ', principal: 'User:*' })],
    principal: 'User:bob',
    operation: 'READ',
    allowed: true,
  },
  ...(['READ', 'WRITE', 'DELETE', 'ALTER'] as const).map(
    (operation): Case => ({
      name: `${operation} implies DESCRIBE`,
      acls: [acl({ operation })],
      operation: 'DESCRIBE',
      allowed: true,
    }),
  ),
  {
    name: 'DESCRIBE does not imply READ',
    acls: [acl({ operation: 'DESCRIBE' })],
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'ALTER_CONFIGS implies DESCRIBE_CONFIGS',
    acls: [acl({ operation: 'ALTER_CONFIGS' })],
    operation: 'DESCRIBE_CONFIGS',
    allowed: true,
  },
  {
    name: 'a DENY of READ does not deny DESCRIBE implied by WRITE',
    acls: [acl({ operation: 'WRITE' }), acl({ operation: 'READ', permission: 'DENY' })],
    operation: 'DESCRIBE',
    allowed: true,
  },
  {
    name: 'a DENY of DESCRIBE denies it even when READ is allowed',
    acls: [acl({ operation: 'READ' }), acl({ operation: 'DESCRIBE', permission: 'DENY' })],
    operation: 'DESCRIBE',
    allowed: false,
  },
  {
    name: 'a matching host allows',
    acls: [acl({ operation: 'READ', host: '10.0.0.5' })],
    host: '10.0.0.5',
    operation: 'READ',
    allowed: true,
  },
  {
    name: 'an IPv4-mapped peer address matches its IPv4 ACL',
    acls: [acl({ operation: 'READ', host: '10.0.0.5' })],
    host: '::ffff:10.0.0.5',
    operation: 'READ',
    allowed: true,
  },
  {
    name: 'another host is not allowed',
    acls: [acl({ operation: 'READ', host: '10.0.0.5' })],
    host: '10.0.0.6',
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'a DENY for one host does not deny another',
    acls: [acl({ operation: 'READ' }), acl({ operation: 'READ', permission: 'DENY', host: '10.0.0.6' })],
    host: '10.0.0.5',
    operation: 'READ',
    allowed: true,
  },
  {
    name: 'a super user is allowed despite a DENY',
    acls: [acl({ operation: 'ALL', permission: 'DENY', principal: 'User:*' })],
    principal: 'User:root',
    superUsers: ['User:root'],
    operation: 'DELETE',
    allowed: true,
  },
  {
    name: 'no ACL on the resource: allowed when allow.everyone.if.no.acl.found',
    acls: [acl({ operation: 'READ', resourceName: 'other' })],
    allowEveryone: true,
    principal: 'User:bob',
    operation: 'WRITE',
    allowed: true,
  },
  {
    name: 'no ACL on the resource: denied otherwise',
    acls: [acl({ operation: 'READ', resourceName: 'other' })],
    allowEveryone: false,
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'an ACL for someone else on the resource: no default applies',
    acls: [acl({ operation: 'READ' })],
    allowEveryone: true,
    principal: 'User:bob',
    operation: 'READ',
    allowed: false,
  },
  {
    name: 'resource types are separate',
    acls: [acl({ operation: 'READ', resourceType: 'GROUP' })],
    resourceType: 'TOPIC',
    operation: 'READ',
    allowed: false,
  },
];

describe('Authorizer.authorize', () => {
  it.each(CASES)('$name', (testCase) => {
    const policy = authorizer(testCase.acls, testCase.allowEveryone ?? false, testCase.superUsers ?? []);
    expect(
      policy.authorize(testCase.principal ?? 'User:alice', testCase.host ?? '127.0.0.1', testCase.operation, {
        resourceType: testCase.resourceType ?? 'TOPIC',
        name: testCase.resource ?? 'orders',
      }),
    ).toBe(testCase.allowed);
  });

  it('re-indexes when the stored list is replaced', () => {
    let bindings: AclBinding[] = [];
    const policy = new Authorizer({
      superUsers: [],
      allowEveryoneIfNoAclFound: false,
      bindings: () => bindings,
    });
    const check = () =>
      policy.authorize('User:alice', '127.0.0.1', 'READ', { resourceType: 'TOPIC', name: 'orders' });
    expect(check()).toBe(false);
    bindings = [acl({ operation: 'READ' })];
    expect(check()).toBe(true);
  });

  it('finds the applying ACLs among thousands by index', () => {
    const bindings = Array.from({ length: 5000 }, (_, index) =>
      acl({
        operation: 'READ',
        resourceName: `topic-${index}`,
        patternType: index % 2 ? 'PREFIXED' : 'LITERAL',
      }),
    );
    const policy = authorizer(bindings);
    expect(policy.authorize('User:alice', 'h', 'READ', { resourceType: 'TOPIC', name: 'topic-4998' })).toBe(
      true,
    );
    expect(policy.authorize('User:alice', 'h', 'READ', { resourceType: 'TOPIC', name: 'topic-4999-x' })).toBe(
      true,
    );
    expect(policy.authorize('User:alice', 'h', 'READ', { resourceType: 'TOPIC', name: 'other-topic' })).toBe(
      false,
    );
  });
});

describe('Authorizer.authorizeAnyOfType (IDEMPOTENT_WRITE implied by WRITE somewhere)', () => {
  const cases: { name: string; acls: AclBinding[]; allowEveryone?: boolean; allowed: boolean }[] = [
    { name: 'WRITE on one topic', acls: [acl({ operation: 'WRITE' })], allowed: true },
    { name: 'only READ', acls: [acl({ operation: 'READ' })], allowed: false },
    {
      name: 'WRITE denied on the same literal',
      acls: [acl({ operation: 'WRITE' }), acl({ operation: 'WRITE', permission: 'DENY' })],
      allowed: false,
    },
    {
      name: 'WRITE denied everywhere by "*"',
      acls: [acl({ operation: 'WRITE' }), acl({ operation: 'WRITE', permission: 'DENY', resourceName: '*' })],
      allowed: false,
    },
    {
      name: 'WRITE denied on another topic only',
      acls: [acl({ operation: 'WRITE' }), acl({ operation: 'WRITE', permission: 'DENY', resourceName: 'x' })],
      allowed: true,
    },
    {
      name: 'WRITE on a prefix denied by a shorter prefix',
      acls: [
        acl({ operation: 'WRITE', patternType: 'PREFIXED', resourceName: 'ord' }),
        acl({ operation: 'WRITE', permission: 'DENY', patternType: 'PREFIXED', resourceName: 'o' }),
      ],
      allowed: false,
    },
    { name: 'no topic ACL at all, open default', acls: [], allowEveryone: true, allowed: true },
    { name: 'no topic ACL at all, secure default', acls: [], allowEveryone: false, allowed: false },
  ];
  it.each(cases)('$name', (testCase) => {
    expect(
      authorizer(testCase.acls, testCase.allowEveryone ?? false).authorizeAnyOfType(
        'User:alice',
        '127.0.0.1',
        'WRITE',
        'TOPIC',
      ),
    ).toBe(testCase.allowed);
  });
});

describe('Authorizer.explain', () => {
  const explainAs = (
    bindings: AclBinding[],
    operation: AclOperation,
    options: { allowEveryone?: boolean; principal?: string; host?: string; resource?: string } = {},
  ) =>
    authorizer(bindings, options.allowEveryone ?? false, ['User:root']).explain(
      options.principal ?? 'User:alice',
      options.host ?? '127.0.0.1',
      operation,
      { resourceType: 'TOPIC', name: options.resource ?? 'orders' },
    );

  it('SUPER_USER: allowed without consulting the ACLs, even a DENY', () => {
    const deny = acl({ operation: 'ALL', permission: 'DENY', principal: 'User:*' });
    expect(explainAs([deny], 'DELETE', { principal: 'User:root' })).toEqual({
      allowed: true,
      reason: 'SUPER_USER',
      acls: [],
    });
  });

  it('DENY_ACL: lists every DENY that covers the operation, not the ALLOWs it beats', () => {
    const allow = acl({ operation: 'READ' });
    const denyAll = acl({ operation: 'ALL', permission: 'DENY', principal: 'User:*' });
    const denyRead = acl({
      operation: 'READ',
      permission: 'DENY',
      patternType: 'PREFIXED',
      resourceName: 'ord',
    });
    const denyWrite = acl({ operation: 'WRITE', permission: 'DENY' });
    expect(explainAs([allow, denyAll, denyRead, denyWrite], 'READ')).toEqual({
      allowed: false,
      reason: 'DENY_ACL',
      acls: [denyAll, denyRead],
    });
  });

  it('ALLOW_ACL: lists the ALLOWs of the operation, of ALL and of operations implying it', () => {
    const read = acl({ operation: 'READ' });
    const all = acl({ operation: 'ALL', resourceName: '*' });
    const describe = acl({ operation: 'DESCRIBE', patternType: 'PREFIXED', resourceName: 'o' });
    const create = acl({ operation: 'CREATE' });
    const bob = acl({ operation: 'DESCRIBE', principal: 'User:bob' });
    expect(explainAs([read, all, describe, create, bob], 'DESCRIBE')).toEqual({
      allowed: true,
      reason: 'ALLOW_ACL',
      acls: [read, all, describe],
    });
  });

  it.each([true, false])('NO_ACL_FOUND: allowEveryoneIfNoAclFound (%s) decides', (allowEveryone) => {
    const elsewhere = acl({ operation: 'READ', resourceName: 'payments' });
    expect(explainAs([elsewhere], 'READ', { allowEveryone })).toEqual({
      allowed: allowEveryone,
      reason: 'NO_ACL_FOUND',
      acls: [],
    });
  });

  it('NO_MATCHING_ALLOW: ACLs name the resource but none allows this principal', () => {
    const forBob = acl({ operation: 'READ', principal: 'User:bob' });
    expect(explainAs([forBob], 'READ', { allowEveryone: true })).toEqual({
      allowed: false,
      reason: 'NO_MATCHING_ALLOW',
      acls: [],
    });
  });

  it('host "*": a host-specific ACL does not apply, one for every host does', () => {
    const fromHost = acl({ operation: 'READ', host: '10.0.0.5' });
    expect(explainAs([fromHost], 'READ', { host: '*' }).reason).toBe('NO_MATCHING_ALLOW');
    expect(explainAs([fromHost], 'READ', { host: '10.0.0.5' }).reason).toBe('ALLOW_ACL');
    expect(explainAs([fromHost], 'READ', { host: '::ffff:10.0.0.5' }).reason).toBe('ALLOW_ACL');
    const denyFromHost = acl({ operation: 'READ', permission: 'DENY', host: '10.0.0.5' });
    expect(explainAs([acl({ operation: 'READ' }), denyFromHost], 'READ', { host: '*' }).reason).toBe(
      'ALLOW_ACL',
    );
  });

  it('PREFIXED: only ACLs covering every name under the prefix decide', () => {
    const prefix = acl({ operation: 'READ', patternType: 'PREFIXED', resourceName: 'ord' });
    const literalSameText = acl({ operation: 'WRITE', resourceName: 'ord' });
    const longer = acl({ operation: 'DELETE', patternType: 'PREFIXED', resourceName: 'orders' });
    const policy = authorizer([prefix, literalSameText, longer]);
    const under = { resourceType: 'TOPIC' as const, name: 'ord', patternType: 'PREFIXED' as const };
    expect(policy.explain('User:alice', '*', 'READ', under)).toMatchObject({ allowed: true, acls: [prefix] });
    expect(policy.explain('User:alice', '*', 'WRITE', under).allowed).toBe(false);
    expect(policy.explain('User:alice', '*', 'DELETE', under).allowed).toBe(false);
    // The literal resource of the same text does get its literal ACL.
    expect(policy.explain('User:alice', '*', 'WRITE', { resourceType: 'TOPIC', name: 'ord' }).allowed).toBe(
      true,
    );
  });

  it('agrees with authorize on every case of the table', () => {
    for (const testCase of CASES) {
      const policy = authorizer(testCase.acls, testCase.allowEveryone ?? false, testCase.superUsers ?? []);
      const args = [
        testCase.principal ?? 'User:alice',
        testCase.host ?? '127.0.0.1',
        testCase.operation,
        { resourceType: testCase.resourceType ?? 'TOPIC', name: testCase.resource ?? 'orders' },
      ] as const;
      expect(policy.explain(...args).allowed, testCase.name).toBe(policy.authorize(...args));
      expect(policy.explain(...args).allowed, testCase.name).toBe(testCase.allowed);
    }
  });

  it('explainEach answers every operation in the order asked', () => {
    const policy = authorizer([acl({ operation: 'READ' })]);
    const verdicts = policy.explainEach('User:alice', '*', ['READ', 'WRITE', 'DESCRIBE'], {
      resourceType: 'TOPIC',
      name: 'orders',
    });
    expect(verdicts.map((verdict) => [verdict.allowed, verdict.reason])).toEqual([
      [true, 'ALLOW_ACL'],
      [false, 'NO_MATCHING_ALLOW'],
      [true, 'ALLOW_ACL'],
    ]);
  });
});
