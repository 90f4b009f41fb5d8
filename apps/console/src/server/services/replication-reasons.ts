import type { BrokerOverview } from '@weir/protocol';
import type { HealthReason } from '../api/schemas/cluster';
import type { BrokerReachability } from '../cluster/broker-reachability';
import { PROBE_TIMEOUT_MS, withDeadline } from './brokers';

/**
 * The broker's replication checks (apps/broker/src/broker-readiness.ts): `in-sync-replicas`
 * (partitions it leads under min.insync.replicas degrade it; under-replicated ones are a note) and,
 * on the controller only, `leaderless-partitions`. Each broker knows only the partitions it leads,
 * so the cluster's health reads them from every broker.
 */
export const REPLICATION_CHECKS: readonly string[] = ['in-sync-replicas', 'leaderless-partitions'];

/** One other broker's overview, or why it could not be read. */
export type PeerOverview =
  | { nodeId: number; overview: Pick<BrokerOverview, 'checks'> }
  | { nodeId: number; error: unknown };

/**
 * The replication checks of the other brokers as health reasons, named by broker: a failing one
 * (under min ISR, leaderless) and a note (under-replicated) are shown; a passing check without a
 * note says nothing the gateway's broker does not say already. A broker that did not answer is
 * left to the `brokers` reason, which names the unreachable ones.
 */
export function peerReplicationReasons(peers: readonly PeerOverview[]): HealthReason[] {
  const reasons: HealthReason[] = [];
  for (const peer of [...peers].sort((left, right) => left.nodeId - right.nodeId)) {
    if (!('overview' in peer)) continue;
    for (const check of peer.overview.checks) {
      if (!REPLICATION_CHECKS.includes(check.name)) continue;
      if (check.ok && !check.detail.startsWith('note:')) continue;
      reasons.push({ check: `broker ${peer.nodeId} ${check.name}`, ok: check.ok, detail: check.detail });
    }
  }
  return reasons;
}

/**
 * Asks every registered broker but `selfNodeId` for its overview, in parallel and each within the
 * probe deadline; brokers the console failed to reach lately are skipped (the `brokers` reason
 * names them), and each answer or failure updates their reachability like the broker list does.
 */
export async function readPeerOverviews(
  brokers: readonly { nodeId: number; host: string; port: number }[],
  selfNodeId: number,
  probe: (broker: { nodeId: number; host: string; port: number }) => Promise<Pick<BrokerOverview, 'checks'>>,
  reachability: Pick<BrokerReachability, 'isSkipped' | 'markAnswered' | 'markFailed'>,
): Promise<PeerOverview[]> {
  const peers = brokers.filter(
    (broker) => broker.nodeId !== selfNodeId && !reachability.isSkipped(broker.nodeId),
  );
  return Promise.all(
    peers.map(async (broker): Promise<PeerOverview> => {
      try {
        const overview = await withDeadline(probe(broker), PROBE_TIMEOUT_MS, `broker ${broker.nodeId}`);
        reachability.markAnswered(broker.nodeId);
        return { nodeId: broker.nodeId, overview };
      } catch (error) {
        reachability.markFailed(broker.nodeId, error);
        return { nodeId: broker.nodeId, error };
      }
    }),
  );
}
