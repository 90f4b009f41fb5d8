import type { ClusterEventView } from '../../../../server/api/schemas/replication-events';

/**
 * Which lane of the chart an event goes in. For one partition the lanes are brokers: the replica
 * that left or joined the ISR, or the new leader. Otherwise they are partitions, and events that
 * belong to no partition (broker sessions) go in a lane of their broker.
 */
export function laneOf(event: ClusterEventView, onePartition: boolean): string {
  if (onePartition || event.topic === undefined) {
    const brokerId = event.replicasChanged[0] ?? event.brokerId ?? event.leader ?? event.previousLeader;
    return brokerId === undefined || brokerId < 0 ? 'no broker' : `broker ${brokerId}`;
  }
  return `${event.topic}-${event.partition ?? '?'}`;
}

/** The lanes, top to bottom: partitions by topic then number, then brokers by id. */
export function orderLanes(lanes: Iterable<string>): string[] {
  const key = (lane: string): [number, string, number] => {
    const broker = /^broker (\d+)$/.exec(lane);
    if (broker !== null) return [1, '', Number(broker[1])];
    const partition = /^(.*)-(\d+)$/.exec(lane);
    if (partition !== null) return [0, partition[1] as string, Number(partition[2])];
    return [2, lane, 0];
  };
  return [...new Set(lanes)].sort((left, right) => {
    const [a, b] = [key(left), key(right)];
    return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || a[2] - b[2];
  });
}
