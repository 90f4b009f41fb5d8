import { describe, expect, it } from 'vitest';
import { type ClusterStatusSources, readClusterStatus } from './cluster-status';
import { statusText } from './cluster-status-command';

/*
 * What `weir cluster status` makes of a cluster read: the brokers with what they lead and follow,
 * a broker gone from the metadata but still in replica sets, a silent one, and the text it prints.
 */

const partitions = [
  { partition: 0, leaderId: 1, replicaNodes: [1, 2, 3], isrNodes: [1, 2], offlineReplicas: [], errorCode: 0 },
  { partition: 1, leaderId: 2, replicaNodes: [2, 3, 1], isrNodes: [2, 1], offlineReplicas: [], errorCode: 0 },
];

function sources(answers: Record<number, 'answer' | 'fail'>, brokerIds = [1, 2]): ClusterStatusSources {
  return {
    admin: {
      describeCluster: async () => ({
        clusterId: 'weir-test',
        controllerId: 1,
        brokers: brokerIds.map((nodeId) => ({ nodeId, host: '127.0.0.1', port: 9000 + nodeId, rack: null })),
      }),
      listTopics: async () => ['orders'],
      describeTopics: async () => [{ name: 'orders', isInternal: false, partitions }],
      describeConfigs: async () => [
        { name: 'orders', configs: [{ name: 'min.insync.replicas', value: '2' }] },
      ],
    } as never,
    ask: async (broker) => {
      if (answers[broker.nodeId] === 'fail') throw new Error('connection refused');
      return [];
    },
    timeoutMs: 1_000,
  };
}

describe('readClusterStatus', () => {
  it('counts what each broker leads and follows and lists a broker whose session ended as gone', async () => {
    const status = await readClusterStatus(sources({ 1: 'answer', 2: 'answer' }));
    expect(status.brokers.map((b) => [b.id, b.state, b.controller, b.leads, b.follows])).toEqual([
      [1, 'live', true, 1, 1],
      [2, 'live', false, 1, 1],
      [3, 'gone', false, 0, 2],
    ]);
    expect(status.healthy).toBe(false);
    expect(status.partitions.map((row) => [row.partition, row.states])).toEqual([
      [0, ['at-min-isr', 'under-replicated']],
      [1, ['at-min-isr', 'under-replicated']],
    ]);
    expect(status.partitions[0]!.reasons).toContain("broker 3's session ended");
  });

  it('names a broker that did not answer and is not healthy because of it', async () => {
    const status = await readClusterStatus(sources({ 1: 'answer', 2: 'fail' }));
    expect(status.answeredBrokers).toEqual([1]);
    expect(status.unansweredBrokers).toEqual([{ brokerId: 2, detail: 'connection refused' }]);
    expect(status.brokers.find((b) => b.id === 2)?.state).toBe('not-answering');
    const text = statusText(status);
    expect(text).toContain('broker 2 did not say what it leads: connection refused');
    expect(text).toContain('needs attention: 2 of 2 partitions of 1 topic checked on 1 broker\n');
    expect(text).toMatch(
      /^orders-0\s+at-min-isr,under-replicated\s+ISR 2 = min.insync.replicas 2: one more lost replica refuses acks=all writes; broker 3's session ended$/m,
    );
  });
});

describe('statusText', () => {
  it('prints the healthy line when nothing needs attention', () => {
    const text = statusText({
      clusterId: 'weir-test',
      controllerId: 1,
      brokers: [
        {
          id: 1,
          host: '127.0.0.1',
          port: 9001,
          rack: 'a',
          state: 'live',
          controller: true,
          leads: 3,
          follows: 0,
        },
      ],
      partitionCount: 3,
      topicCount: 1,
      answeredBrokers: [1],
      unansweredBrokers: [],
      partitions: [],
      healthy: true,
    });
    expect(text).toBe(
      [
        'cluster id: weir-test',
        'controller: broker 1',
        '',
        'ID  HOST:PORT       RACK  STATE  CONTROLLER  LEADS  FOLLOWS',
        '1   127.0.0.1:9001  a     live   yes         3      0',
        '',
        'healthy: 3 partitions of 1 topic checked on 1 broker',
        '',
      ].join('\n'),
    );
  });
});
