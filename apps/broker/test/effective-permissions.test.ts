import {
  type AclBinding,
  type AclOperation,
  type AclPatternType,
  type AclResourceType,
  type EffectivePermissions,
  ErrorCode,
  InternalAdmin,
  OPERATIONS_BY_RESOURCE_TYPE,
  type OperationVerdict,
  type PermissionReason,
  type ResourcePermissions,
  TransactionalProducer,
} from '@weir/protocol';
import type { RunningBroker } from '@weir/test-broker';
import { describe, expect, it } from 'vitest';
import { cluster, grant, PRINCIPAL_OF, secureBrokerPerTest } from './acl-fixtures';
import { expectExitCode, weir } from './cli-runner';
import { weirFailure } from './internal-fixtures';

/**
 * WeirDescribeEffectivePermissions end to end: a secure SASL broker seeded with topics `data`,
 * `victim`, `grow` and groups `grp`, `doomed`; the console's connection to the internal listener
 * (the bare token, or acting for a user with the WEIR-TOKEN authzid) asks through InternalAdmin.
 */
describe('effective permissions (WeirDescribeEffectivePermissions)', () => {
  const secure = secureBrokerPerTest();

  /** The internal admin of the console's connection, acting for `actAs` when given. */
  function internalAs(actAs?: string): InternalAdmin {
    return new InternalAdmin(secure.internalClientAs(actAs));
  }

  async function addAcls(broker: RunningBroker, ...bindings: AclBinding[]): Promise<void> {
    const results = await broker.broker.services.acls.createAcls(bindings.map((binding) => ({ binding })));
    expect(results.map((result) => result.errorCode)).toEqual(bindings.map(() => ErrorCode.NONE));
  }

  function resourceOf(
    permissions: EffectivePermissions,
    resourceType: AclResourceType,
    resourceName: string,
    patternType: AclPatternType = 'LITERAL',
  ): ResourcePermissions {
    const found = permissions.resources.find(
      (resource) =>
        resource.resourceType === resourceType &&
        resource.resourceName === resourceName &&
        resource.patternType === patternType,
    );
    if (found === undefined) throw new Error(`no ${patternType} ${resourceType} "${resourceName}" entry`);
    return found;
  }

  function verdictOf(resource: ResourcePermissions, operation: AclOperation): OperationVerdict {
    const found = resource.operations.find((verdict) => verdict.operation === operation);
    if (found === undefined) throw new Error(`no ${operation} on ${resource.resourceName}`);
    return found;
  }

  /** A whole verdict, to compare one with. */
  function verdict(
    operation: AclOperation,
    allowed: boolean,
    reason: PermissionReason,
    acls: AclBinding[] = [],
  ): OperationVerdict {
    return { operation, allowed, reason, acls };
  }

  it('a super user: SUPER_USER on every operation of every resource, in the view order', async () => {
    await secure.start();
    // A transactional id the coordinator knows, so the view has one.
    const producerClient = secure.clientAs('super');
    const producer = new TransactionalProducer(producerClient, { transactionalId: 'tx-known' });
    await producer.initTransactions();
    await producer.close();

    const permissions = await internalAs().describeEffectivePermissions(PRINCIPAL_OF.super);
    expect(permissions).toMatchObject({ principal: 'User:admin', host: '*', superUser: true });
    expect(permissions.allowEveryoneIfNoAclFound).toBe(false);
    const names = permissions.resources.map(
      (resource) => `${resource.resourceType}:${resource.resourceName}`,
    );
    expect(names[0]).toBe('CLUSTER:kafka-cluster');
    expect(names).toEqual(
      expect.arrayContaining([
        'TOPIC:data',
        'TOPIC:victim',
        'TOPIC:grow',
        'TOPIC:__consumer_offsets',
        'GROUP:grp',
        'GROUP:doomed',
        'TRANSACTIONAL_ID:tx-known',
      ]),
    );
    const typeRank = ['CLUSTER', 'TOPIC', 'GROUP', 'TRANSACTIONAL_ID'];
    const sorted = [...permissions.resources].sort(
      (left, right) =>
        typeRank.indexOf(left.resourceType) - typeRank.indexOf(right.resourceType) ||
        (left.resourceName < right.resourceName ? -1 : left.resourceName > right.resourceName ? 1 : 0),
    );
    expect(permissions.resources).toEqual(sorted);
    for (const resource of permissions.resources) {
      expect(resource.exists).toBe(true);
      expect(resource.operations.map((verdict) => verdict.operation)).toEqual(
        OPERATIONS_BY_RESOURCE_TYPE[resource.resourceType],
      );
      for (const given of resource.operations) {
        expect(given).toEqual(verdict(given.operation, true, 'SUPER_USER'));
      }
    }
  });

  it('an ALLOW READ allows READ and the DESCRIBE it implies, listing the ACL; a DENY beats it', async () => {
    const broker = await secure.start();
    const readData = grant('TOPIC', 'data', 'READ');
    await addAcls(broker, readData);
    const internal = internalAs();

    const dataAsGranted = async () =>
      resourceOf(await internal.describeEffectivePermissions(PRINCIPAL_OF.granted), 'TOPIC', 'data');

    const allowed = await dataAsGranted();
    expect(verdictOf(allowed, 'READ')).toEqual(verdict('READ', true, 'ALLOW_ACL', [readData]));
    expect(verdictOf(allowed, 'DESCRIBE')).toMatchObject({
      allowed: true,
      reason: 'ALLOW_ACL',
      acls: [readData],
    });
    expect(verdictOf(allowed, 'WRITE')).toMatchObject({
      allowed: false,
      reason: 'NO_MATCHING_ALLOW',
      acls: [],
    });

    const denyRead: AclBinding = { ...readData, principal: 'User:*', permission: 'DENY' };
    await addAcls(broker, denyRead);
    const denied = await dataAsGranted();
    expect(verdictOf(denied, 'READ')).toEqual(verdict('READ', false, 'DENY_ACL', [denyRead]));
    // Denying READ takes nothing from the DESCRIBE that READ implied: Kafka's rule, as requests get it.
    expect(verdictOf(denied, 'DESCRIBE')).toMatchObject({ allowed: true, reason: 'ALLOW_ACL' });
  });

  it('a PREFIXED ACL has its own entry and applies to an existing topic under it', async () => {
    const broker = await secure.start();
    const writeUnderDa = grant('TOPIC', 'da', 'WRITE', 'PREFIXED');
    const readFuture = grant('TOPIC', 'future', 'READ');
    await addAcls(broker, writeUnderDa, readFuture);
    const permissions = await internalAs().describeEffectivePermissions(PRINCIPAL_OF.granted);

    const prefix = resourceOf(permissions, 'TOPIC', 'da', 'PREFIXED');
    expect(prefix.exists).toBe(false);
    expect(verdictOf(prefix, 'WRITE')).toMatchObject({
      allowed: true,
      reason: 'ALLOW_ACL',
      acls: [writeUnderDa],
    });
    expect(verdictOf(resourceOf(permissions, 'TOPIC', 'data'), 'WRITE')).toMatchObject({
      allowed: true,
      reason: 'ALLOW_ACL',
      acls: [writeUnderDa],
    });
    // Not under the prefix: no ACL names it.
    expect(verdictOf(resourceOf(permissions, 'TOPIC', 'victim'), 'WRITE').reason).toBe('NO_ACL_FOUND');
    // A literal name only an ACL mentions is an entry that does not exist.
    const future = resourceOf(permissions, 'TOPIC', 'future');
    expect(future.exists).toBe(false);
    expect(verdictOf(future, 'READ').allowed).toBe(true);
  });

  it.each([false, true])('NO_ACL_FOUND follows allowEveryoneIfNoAclFound (%s)', async (allowEveryone) => {
    await secure.start(allowEveryone);
    const permissions = await internalAs().describeEffectivePermissions(PRINCIPAL_OF['no-acl']);
    expect(permissions.allowEveryoneIfNoAclFound).toBe(allowEveryone);
    expect(permissions.superUser).toBe(false);
    for (const operation of OPERATIONS_BY_RESOURCE_TYPE.TOPIC) {
      expect(verdictOf(resourceOf(permissions, 'TOPIC', 'victim'), operation)).toEqual(
        verdict(operation, allowEveryone, 'NO_ACL_FOUND'),
      );
    }
  });

  it('a user is answered about itself without any ACL, but not about someone else', async () => {
    const broker = await secure.start();
    const acting = internalAs(PRINCIPAL_OF['no-acl']);

    const own = await acting.describeEffectivePermissions(PRINCIPAL_OF['no-acl']);
    expect(own.principal).toBe(PRINCIPAL_OF['no-acl']);
    expect(verdictOf(resourceOf(own, 'CLUSTER', 'kafka-cluster'), 'DESCRIBE')).toMatchObject({
      allowed: false,
      reason: 'NO_ACL_FOUND',
    });

    const other = await weirFailure(acting.describeEffectivePermissions(PRINCIPAL_OF.granted));
    expect(other.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    // DESCRIBE on the cluster is what asking about others needs.
    await addAcls(broker, { ...cluster('DESCRIBE'), principal: PRINCIPAL_OF['no-acl'] });
    const granted = await acting.describeEffectivePermissions(PRINCIPAL_OF.granted);
    expect(granted.principal).toBe(PRINCIPAL_OF.granted);
  });

  it("the console's own principal is answered as the super user it is on the internal listener", async () => {
    await secure.start();
    // The bare token's principal: the console itself (and the other brokers).
    const own = await internalAs().describeEffectivePermissions('User:weir-internal');
    expect(own).toMatchObject({ principal: 'User:weir-internal', superUser: true });
    const verdicts = own.resources.flatMap((resource) => resource.operations);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((verdict) => !verdict.allowed || verdict.reason !== 'SUPER_USER')).toEqual([]);
    // Users asked about through the same listener keep the client listener's policy.
    const user = await internalAs().describeEffectivePermissions(PRINCIPAL_OF['no-acl']);
    expect(user.superUser).toBe(false);
  });

  it.each(['alice', 'User:', '', 'Group:x'])(
    'refuses the principal "%s" with INVALID_REQUEST',
    async (principal) => {
      await secure.start();
      const failure = await weirFailure(internalAs().describeEffectivePermissions(principal));
      expect(failure.code).toBe(ErrorCode.INVALID_REQUEST);
      expect(failure.message).toMatch(/principal/);
    },
  );

  it('a host-specific ACL applies when that host is asked, not for "*"', async () => {
    const broker = await secure.start();
    const fromHost: AclBinding = { ...grant('TOPIC', 'victim', 'READ'), host: '10.0.0.7' };
    await addAcls(broker, fromHost);
    const internal = internalAs();

    const anyHost = await internal.describeEffectivePermissions(PRINCIPAL_OF.granted);
    expect(anyHost.host).toBe('*');
    expect(verdictOf(resourceOf(anyHost, 'TOPIC', 'victim'), 'READ')).toMatchObject({
      allowed: false,
      reason: 'NO_MATCHING_ALLOW',
    });
    // An empty host means "*" too.
    const emptyHost = await internal.describeEffectivePermissions(PRINCIPAL_OF.granted, '');
    expect(emptyHost.host).toBe('*');
    expect(verdictOf(resourceOf(emptyHost, 'TOPIC', 'victim'), 'READ').allowed).toBe(false);

    const thatHost = await internal.describeEffectivePermissions(PRINCIPAL_OF.granted, '10.0.0.7');
    expect(thatHost.host).toBe('10.0.0.7');
    expect(verdictOf(resourceOf(thatHost, 'TOPIC', 'victim'), 'READ')).toEqual(
      verdict('READ', true, 'ALLOW_ACL', [fromHost]),
    );
  });

  it('weir acl effective prints a verdict table, or the whole answer with --json', async () => {
    const broker = await secure.start();
    const readData = grant('TOPIC', 'data', 'READ');
    await addAcls(broker, readData);
    const cli = (...args: string[]) =>
      weir([
        'acl',
        'effective',
        ...args,
        '--internal',
        broker.internalBootstrap,
        '--token',
        broker.internalToken,
      ]);

    const table = expectExitCode(await cli('--principal', PRINCIPAL_OF.granted), 0);
    const rows = table.stdout.split('\n').map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(['TYPE', 'RESOURCE', 'PATTERN', 'EXISTS', 'OPERATION', 'VERDICT', 'REASON']);
    expect(rows).toContainEqual(['TOPIC', 'data', 'LITERAL', 'yes', 'READ', 'ALLOW', 'ALLOW_ACL']);
    expect(rows).toContainEqual(['TOPIC', 'data', 'LITERAL', 'yes', 'WRITE', 'DENY', 'NO_MATCHING_ALLOW']);
    expect(rows).toContainEqual(['TOPIC', 'victim', 'LITERAL', 'yes', 'READ', 'DENY', 'NO_ACL_FOUND']);
    expect(table.stderr).toContain('User:granted from any host');

    const json = expectExitCode(
      await cli('--principal', PRINCIPAL_OF.granted, '--host', '10.0.0.7', '--json'),
      0,
    );
    const parsed = JSON.parse(json.stdout) as EffectivePermissions;
    expect(parsed.host).toBe('10.0.0.7');
    expect(verdictOf(resourceOf(parsed, 'TOPIC', 'data'), 'READ').acls).toEqual([readData]);

    const refused = await cli('--principal', 'alice');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('User:<name>');
  });
});
