import {
  type AclBinding,
  Admin,
  AdminItemsError,
  ErrorCode,
  MATCH_ALL_ACLS,
  Metadata,
  WeirError,
  ZERO_UUID,
} from '@weir/protocol';
import type { RunningBroker } from '@weir/test-broker';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
} from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { grant, PASSWORDS, secureBrokerPerTest } from './acl-fixtures';

function kafkajsAs(running: RunningBroker, username: 'admin' | 'granted' | 'nobody') {
  return new Kafka({
    clientId: 'acl-kafkajs',
    brokers: [running.bootstrap],
    logLevel: logLevel.NOTHING,
    sasl: { mechanism: 'plain', username, password: PASSWORDS[username] },
    retry: { retries: 0 },
  });
}

const readOrders: AclBinding = {
  resourceType: 'TOPIC',
  resourceName: 'orders',
  patternType: 'LITERAL',
  principal: 'User:granted',
  host: '*',
  operation: 'READ',
  permission: 'ALLOW',
};

describe('ACL APIs', () => {
  const secure = secureBrokerPerTest();

  function adminAs(kind: 'super' | 'granted' | 'no-acl'): Admin {
    return new Admin(secure.clientAs(kind));
  }

  it('creates, describes and deletes ACLs with kafkajs 2.2.4 (v1, LITERAL and PREFIXED)', async () => {
    const broker = await secure.start();
    const admin = kafkajsAs(broker, 'admin').admin();
    await admin.connect();
    try {
      await admin.createAcls({
        acl: [
          {
            resourceType: AclResourceTypes.TOPIC,
            resourceName: 'orders',
            resourcePatternType: ResourcePatternTypes.LITERAL,
            principal: 'User:granted',
            host: '*',
            operation: AclOperationTypes.READ,
            permissionType: AclPermissionTypes.ALLOW,
          },
          {
            resourceType: AclResourceTypes.GROUP,
            resourceName: 'team-',
            resourcePatternType: ResourcePatternTypes.PREFIXED,
            principal: 'User:granted',
            host: '*',
            operation: AclOperationTypes.ALL,
            permissionType: AclPermissionTypes.DENY,
          },
        ],
      });
      const described = await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      expect(described.resources).toEqual(
        expect.arrayContaining([
          {
            resourceType: AclResourceTypes.TOPIC,
            resourceName: 'orders',
            resourcePatternType: ResourcePatternTypes.LITERAL,
            acls: [
              {
                principal: 'User:granted',
                host: '*',
                operation: AclOperationTypes.READ,
                permissionType: AclPermissionTypes.ALLOW,
              },
            ],
          },
          expect.objectContaining({
            resourceName: 'team-',
            resourcePatternType: ResourcePatternTypes.PREFIXED,
          }),
        ]),
      );
      const matching = await admin.describeAcls({
        resourceType: AclResourceTypes.GROUP,
        resourceName: 'team-blue',
        resourcePatternType: ResourcePatternTypes.MATCH,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      expect(matching.resources.map((resource) => resource.resourceName)).toEqual(['team-']);
      const deleted = await admin.deleteAcls({
        filters: [
          {
            resourceType: AclResourceTypes.TOPIC,
            resourcePatternType: ResourcePatternTypes.ANY,
            operation: AclOperationTypes.ANY,
            permissionType: AclPermissionTypes.ANY,
          },
        ],
      });
      expect(deleted.filterResponses[0]?.matchingAcls.map((acl) => acl.resourceName)).toEqual(['orders']);
      expect(broker.broker.services.acls.describeAcls(MATCH_ALL_ACLS).map((acl) => acl.resourceName)).toEqual(
        ['team-'],
      );
    } finally {
      await admin.disconnect();
    }
  });

  it('refuses kafkajs ACL changes without ALTER on the cluster, and changes nothing', async () => {
    const broker = await secure.start();
    const admin = kafkajsAs(broker, 'nobody').admin();
    await admin.connect();
    try {
      await expect(
        admin.createAcls({
          acl: [
            {
              resourceType: AclResourceTypes.TOPIC,
              resourceName: 'orders',
              resourcePatternType: ResourcePatternTypes.LITERAL,
              principal: 'User:nobody',
              host: '*',
              operation: AclOperationTypes.ALL,
              permissionType: AclPermissionTypes.ALLOW,
            },
          ],
        }),
      ).rejects.toMatchObject({ type: 'CLUSTER_AUTHORIZATION_FAILED' });
      expect(broker.broker.services.acls.describeAcls(MATCH_ALL_ACLS)).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });

  it('serves the SDK admin, refuses invalid ACLs per item, and keeps ACLs across a restart', async () => {
    await secure.start();
    const admin = adminAs('super');
    const badCluster: AclBinding = { ...readOrders, resourceType: 'CLUSTER', resourceName: 'other' };
    const failure = await admin.createAcls([readOrders, badCluster]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AdminItemsError);
    expect((failure as AdminItemsError).failures.map((item) => item.error.code)).toEqual([
      ErrorCode.INVALID_REQUEST,
    ]);
    await admin.createAcls([readOrders, grant('TOPIC', 'data', 'READ')]);
    expect(await admin.describeAcls({ ...MATCH_ALL_ACLS, resourceName: 'orders' })).toEqual([readOrders]);

    await secure.restart();
    const again = adminAs('super');
    expect(await again.describeAcls({ ...MATCH_ALL_ACLS, principal: 'User:granted' })).toEqual([
      readOrders,
      grant('TOPIC', 'data', 'READ'),
    ]);
    // Still enforced: granted may see `data` but not `victim`.
    expect(await adminAs('granted').listTopics()).toEqual(['data']);
    const deleted = await again.deleteAcls([{ ...MATCH_ALL_ACLS, resourceName: 'orders' }]);
    expect(deleted).toEqual([[readOrders]]);
    expect(await again.describeAcls(MATCH_ALL_ACLS)).toEqual([grant('TOPIC', 'data', 'READ')]);
  });

  it('refuses the SDK admin without DESCRIBE on the cluster', async () => {
    await secure.start();
    const error = await adminAs('no-acl')
      .describeAcls(MATCH_ALL_ACLS)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
  });

  it('lets a principal that may describe but not create see TOPIC_AUTHORIZATION_FAILED for auto-creation', async () => {
    const broker = await secure.start();
    await broker.broker.services.acls.createAcls([
      { binding: grant('TOPIC', 'auto-', 'DESCRIBE', 'PREFIXED') },
    ]);
    const client = secure.clientAs('granted');
    const response = await client.send('any', Metadata, {
      topics: [{ topicId: ZERO_UUID, name: 'auto-one' }],
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(response.topics.map((topic) => [topic.name, topic.errorCode])).toEqual([
      ['auto-one', ErrorCode.TOPIC_AUTHORIZATION_FAILED],
    ]);
    expect(
      broker.broker.services.topicDescriptions.listTopics({ includeInternal: false }).map((t) => t.name),
    ).not.toContain('auto-one');
  });

  it('lists only the topics and groups the principal may describe', async () => {
    const broker = await secure.start();
    await broker.broker.services.acls.createAcls(
      [grant('TOPIC', 'da', 'DESCRIBE', 'PREFIXED'), grant('GROUP', 'grp', 'DESCRIBE')].map((binding) => ({
        binding,
      })),
    );
    const admin = adminAs('granted');
    expect(await admin.listTopics()).toEqual(['data']);
    expect((await admin.listGroups()).map((group) => group.groupId)).toEqual(['grp']);
  });
});
