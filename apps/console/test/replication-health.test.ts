import type { BrokerOverview } from '@weir/protocol';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HealthPanel } from '../src/app/_components/health-panel';
import { createBrokerReachability } from '../src/server/cluster/broker-reachability';
import { clusterOverview } from '../src/server/services/cluster-overview';
import { readPeerOverviews } from '../src/server/services/replication-reasons';

type Check = BrokerOverview['checks'][number];

function brokerOverview(nodeId: number, checks: Check[]): BrokerOverview {
  return {
    nodeId,
    clusterId: 'c',
    version: 'v',
    startedAtMs: 0,
    listeners: [],
    checks,
    topicCount: 1,
    internalTopicCount: 0,
    partitionCount: 3,
    groupCount: 0,
    connectionCount: 0,
    logSizeBytes: 0n,
    throughput: {
      windowMs: 60_000,
      bytesInPerSecond: 0,
      recordsInPerSecond: 0,
      bytesOutPerSecond: 0,
      recordsOutPerSecond: 0,
      requestsPerSecond: 0,
    },
  };
}

/** What the brokers' /ready says (apps/broker/src/broker-readiness.ts) with one follower of each partition dead. */
const selfChecks: Check[] = [
  { name: 'storage', ok: true, detail: 'recovered' },
  {
    name: 'in-sync-replicas',
    ok: true,
    detail: 'note: 1 under-replicated, acks=all still served (orders-0 ISR 2 of 3)',
  },
];
const underMinIsr: Check = {
  name: 'in-sync-replicas',
  ok: false,
  detail: '1 under min.insync.replicas, acks=all refused (orders-1)',
};
const leaderless: Check = {
  name: 'leaderless-partitions',
  ok: false,
  detail: '1 without a live leader (audit-0)',
};
const sources = {
  describeBroker: async () => brokerOverview(1, selfChecks),
  readPartitionHealth: async () => ({ offline: [], underReplicated: [] }),
  peerOverviews: async (selfNodeId: number) => {
    expect(selfNodeId).toBe(1);
    return [
      {
        nodeId: 3,
        overview: brokerOverview(3, [
          leaderless,
          { ...underMinIsr, ok: true, detail: 'every partition led here has its full ISR' },
        ]),
      },
      {
        nodeId: 2,
        overview: brokerOverview(2, [underMinIsr, { name: 'storage', ok: true, detail: 'recovered' }]),
      },
      { nodeId: 4, error: new Error('connect ECONNREFUSED') },
    ];
  },
};

describe('replication reasons in the health panel', () => {
  it('shows every broker’s under-min-ISR and leaderless partitions, and notes under-replicated ones', async () => {
    const overview = await clusterOverview(sources, 'broker:9093', () => 1);
    expect(overview.health.status).toBe('degraded');
    const reasons = overview.health.reasons;
    expect(reasons.filter((reason) => !reason.ok)).toEqual([
      { check: 'broker 2 in-sync-replicas', ok: false, detail: underMinIsr.detail },
      { check: 'broker 3 leaderless-partitions', ok: false, detail: leaderless.detail },
    ]);
    // The gateway's own broker's note is listed as passing; a peer's passing check without a note is not.
    expect(reasons).toContainEqual({ check: 'in-sync-replicas', ok: true, detail: selfChecks[1]!.detail });
    expect(reasons.map((reason) => reason.check)).not.toContain('broker 3 in-sync-replicas');

    const html = renderToStaticMarkup(
      createElement(HealthPanel, { health: overview.health, brokerAddress: 'broker:9093', asOf: null }),
    );
    expect(html).toContain('broker 2 in-sync-replicas');
    expect(html).toContain('1 under min.insync.replicas, acks=all refused (orders-1)');
    expect(html).toContain('broker 3 leaderless-partitions');
    expect(html).toContain('note: 1 under-replicated, acks=all still served (orders-0 ISR 2 of 3)');
    expect(html.indexOf('broker 2 in-sync-replicas')).toBeLessThan(html.indexOf('note: 1 under-replicated'));
  });

  it('asks every other registered broker once, skips those unreachable lately, and marks failures', async () => {
    const reachability = createBrokerReachability();
    reachability.markFailed(4, new Error('earlier failure'));
    const asked: number[] = [];
    const brokers = [1, 2, 3, 4].map((nodeId) => ({ nodeId, host: '127.0.0.1', port: 9000 + nodeId }));
    const peers = await readPeerOverviews(
      brokers,
      1,
      async (broker) => {
        asked.push(broker.nodeId);
        if (broker.nodeId === 3) throw new Error('connect ECONNREFUSED');
        return brokerOverview(broker.nodeId, [underMinIsr]);
      },
      reachability,
    );
    expect(asked.sort()).toEqual([2, 3]);
    expect(peers.map((peer) => [peer.nodeId, 'overview' in peer])).toEqual([
      [2, true],
      [3, false],
    ]);
    expect(reachability.isSkipped(3)).toBe(true);
    expect(reachability.isSkipped(2)).toBe(false);
  });
});
