import { Admin, type Client, ElectLeaders, ErrorCode } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, secureBrokerPerTest } from './acl-fixtures';
import { clientSession, type InternalSession, internalSession, weirFailure } from './internal-fixtures';

/**
 * ElectLeaders against a real standalone broker: every partition has one replica, which leads, so
 * every election is ELECTION_NOT_NEEDED and nothing is written; partitions that do not exist are
 * UNKNOWN_TOPIC_OR_PARTITION; every partition (null) answers nothing. Served at v1 on the client
 * listener and v2 on the internal one; without ALTER on the cluster, CLUSTER_AUTHORIZATION_FAILED.
 */
describe('ElectLeaders on a standalone broker', () => {
  let running: RunningBroker;
  let data: { client: Client; admin: Admin };
  let session: InternalSession;

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    data = clientSession(running);
    session = internalSession(running);
    await data.admin.createTopics([{ name: 'solo', partitions: 3 }]);
  });

  afterAll(async () => {
    await session?.close();
    await data?.client.close();
    await running?.dispose();
  });

  it('is served at v1 on the client listener and v2 on the internal one', async () => {
    const id = running.broker.services.cluster.localBrokerId;
    expect((await data.client.connectionTo(id)).versionFor(ElectLeaders)).toBe(1);
    expect((await session.client.connectionTo(id)).versionFor(ElectLeaders)).toBe(2);
  });

  it.each(['preferred', 'unclean'] as const)(
    'answers ELECTION_NOT_NEEDED for every named partition (%s) and changes no epoch',
    async (electionType) => {
      const before = running.broker.services.cluster.assignmentsOf('solo').map((a) => a.leaderEpoch);
      const results = await data.admin.electLeaders({
        electionType,
        partitions: [
          { topic: 'solo', partitions: [2, 0, 1] },
          { topic: 'missing', partitions: [0] },
        ],
        timeoutMs: 5000,
      });
      expect(results.map((r) => [r.topic, r.partition, r.errorCode])).toEqual([
        ['missing', 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
        ['solo', 0, ErrorCode.ELECTION_NOT_NEEDED],
        ['solo', 1, ErrorCode.ELECTION_NOT_NEEDED],
        ['solo', 2, ErrorCode.ELECTION_NOT_NEEDED],
      ]);
      expect(running.broker.services.cluster.assignmentsOf('solo').map((a) => a.leaderEpoch)).toEqual(before);
    },
  );

  it('answers nothing for every partition (null), as Kafka leaves out the ones needing no election', async () => {
    expect(await data.admin.electLeaders({ electionType: 'preferred' })).toEqual([]);
    // The same through the internal listener's flexible v2.
    const response = await session.client.send('any', ElectLeaders, {
      electionType: 0,
      topicPartitions: null,
      timeoutMs: 1000,
    });
    expect(response).toMatchObject({ errorCode: ErrorCode.NONE, replicaElectionResults: [] });
  });
});

describe('ElectLeaders authorization', () => {
  const secure = secureBrokerPerTest();

  it('is CLUSTER_AUTHORIZATION_FAILED without ALTER on the cluster; allowed with it', async () => {
    const running = await secure.start();
    await running.broker.services.topics.createTopic({
      name: 'guarded',
      partitionCount: 1,
      configs: {},
      placement: { kind: 'factor', replicationFactor: 1 },
    });
    const request = {
      electionType: 'preferred',
      partitions: [{ topic: 'guarded', partitions: [0] }],
    } as const;
    const denied = await weirFailure(new Admin(secure.clientAs('no-acl')).electLeaders(request));
    expect(denied.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);
    const onInternal = await weirFailure(
      new Admin(secure.internalClientAs('User:nobody')).electLeaders(request),
    );
    expect(onInternal.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    await running.broker.services.acls.createAcls([{ binding: cluster('ALTER') }]);
    const results = await new Admin(secure.clientAs('granted')).electLeaders(request);
    expect(results).toMatchObject([
      { topic: 'guarded', partition: 0, errorCode: ErrorCode.ELECTION_NOT_NEEDED },
    ]);
  });
});
