import type { Admin } from '@weir/protocol';
import type {
  LaggingFollower,
  PartitionReplicationRow,
  PartitionReplicationState,
  ReplicationHealth,
  ReplicationHealthInput,
} from '../api/schemas/replication';
import { partitionReplicationStates } from '../api/schemas/replication';
import type { BrokerReachability } from '../cluster/broker-reachability';
import { PROBE_TIMEOUT_MS, withDeadline } from './brokers';

/**
 * What one leader says about a partition it leads beyond the metadata: when its ISR and leader
 * last changed and how far each follower is behind. Brokers report only the partitions they lead,
 * so the cluster's picture is merged from every broker's answer.
 */
export interface LeaderReplicationReport {
  readonly topic: string;
  readonly partition: number;
  readonly isrChangedAtMs: number | null;
  readonly leaderChangedAtMs: number | null;
  readonly followers: readonly { brokerId: number; lagRecords: bigint; lagMs: number }[];
}

type Broker = { nodeId: number; host: string; port: number };

type BrokerAnswer =
  | { brokerId: number; reports: readonly LeaderReplicationReport[] }
  | { brokerId: number; detail: string };

/** Where the ISR health page reads from. */
export interface ReplicationHealthSources {
  readonly admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics' | 'describeConfigs'>;
  /**
   * Asks one broker for the replication of the partitions it leads; answering at all is what makes
   * it count as answered, so a broker that cannot report lag yet answers with no reports.
   */
  readonly ask: (broker: Broker) => Promise<readonly LeaderReplicationReport[]>;
  readonly reachability: Pick<BrokerReachability, 'markAnswered' | 'markFailed' | 'remember'>;
}

/** min.insync.replicas when a topic's configs cannot be read: Kafka's default. */
const DEFAULT_MIN_INSYNC_REPLICAS = 1;

const STATE_ORDER = new Map(partitionReplicationStates.map((state, index) => [state, index]));

/**
 * The partitions whose replication needs attention, each with its reasons in words, from one
 * metadata read (leaders, replicas, ISRs, registered brokers), the topics' min.insync.replicas and
 * every registered broker's report on what it leads (asked in parallel, each within the probe
 * deadline; a broker that does not answer is named, and its partitions are judged from the
 * metadata alone).
 */
export async function readReplicationHealth(
  sources: ReplicationHealthSources,
  input: ReplicationHealthInput,
  now: () => number,
): Promise<ReplicationHealth> {
  const { admin, reachability } = sources;
  const cluster = await admin.describeCluster();
  for (const broker of cluster.brokers) reachability.remember(broker);
  const registered = new Set(cluster.brokers.map((broker) => broker.nodeId));
  const names = input.topic === undefined ? await admin.listTopics({ includeInternal: true }) : [input.topic];
  const [topics, minIsr, answers] = await Promise.all([
    names.length === 0 ? Promise.resolve([]) : admin.describeTopics(names),
    readMinInsyncReplicas(admin, names),
    Promise.all(
      cluster.brokers.map(async (broker): Promise<BrokerAnswer> => {
        try {
          const reports = await withDeadline(
            sources.ask(broker),
            PROBE_TIMEOUT_MS,
            `broker ${broker.nodeId}`,
          );
          reachability.markAnswered(broker.nodeId);
          return { brokerId: broker.nodeId, reports };
        } catch (error) {
          reachability.markFailed(broker.nodeId, error);
          return { brokerId: broker.nodeId, detail: error instanceof Error ? error.message : String(error) };
        }
      }),
    ),
  ]);
  const reports = new Map<string, LeaderReplicationReport>();
  for (const answer of answers) {
    if (!('reports' in answer)) continue;
    for (const report of answer.reports) reports.set(`${report.topic}\u0000${report.partition}`, report);
  }
  const counts = { offline: 0, underMinIsr: 0, atMinIsr: 0, underReplicated: 0, nonPreferredLeader: 0 };
  const rows: PartitionReplicationRow[] = [];
  let partitionCount = 0;
  let topicCount = 0;
  for (const topic of [...topics].sort((left, right) => compareText(left.name, right.name))) {
    let covered = false;
    for (const partition of topic.partitions) {
      if (input.brokerId !== undefined && !partition.replicaNodes.includes(input.brokerId)) continue;
      covered = true;
      partitionCount += 1;
      const row = judgePartition(
        topic.name,
        partition,
        minIsr.get(topic.name) ?? DEFAULT_MIN_INSYNC_REPLICAS,
        registered,
        reports.get(`${topic.name}\u0000${partition.partition}`),
      );
      if (row.states.includes('offline')) counts.offline += 1;
      if (row.states.includes('under-min-isr')) counts.underMinIsr += 1;
      if (row.states.includes('at-min-isr')) counts.atMinIsr += 1;
      if (row.states.includes('under-replicated')) counts.underReplicated += 1;
      if (row.states.includes('non-preferred-leader')) counts.nonPreferredLeader += 1;
      if (row.states.length === 0) continue;
      if (input.state !== undefined && !row.states.includes(input.state)) continue;
      rows.push(row);
    }
    if (covered) topicCount += 1;
  }
  return {
    asOfMs: now(),
    partitionCount,
    topicCount,
    registeredBrokers: [...registered].sort((left, right) => left - right),
    answeredBrokers: answers
      .filter((answer) => 'reports' in answer)
      .map((answer) => answer.brokerId)
      .sort((left, right) => left - right),
    unansweredBrokers: answers
      .flatMap((answer) => ('detail' in answer ? [{ brokerId: answer.brokerId, detail: answer.detail }] : []))
      .sort((left, right) => left.brokerId - right.brokerId),
    counts,
    partitions: rows,
  };
}

/** Each topic's min.insync.replicas, in one DescribeConfigs; topics it could not read are left out. */
async function readMinInsyncReplicas(
  admin: Pick<Admin, 'describeConfigs'>,
  names: readonly string[],
): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  if (names.length === 0) return values;
  try {
    const described = await admin.describeConfigs(
      names.map((name) => ({ type: 'topic' as const, name, keys: ['min.insync.replicas'] })),
      {},
    );
    for (const description of described) {
      const entry = description.configs.find((config) => config.name === 'min.insync.replicas');
      const value = Number(entry?.value);
      if (Number.isInteger(value) && value > 0) values.set(description.name, value);
    }
  } catch {
    // Without the configs the states that need min.insync.replicas use Kafka's default of 1;
    // offline and under-replicated partitions are still found from the metadata.
  }
  return values;
}

/** One partition's states and reasons, worst first. */
export function judgePartition(
  topic: string,
  partition: {
    partition: number;
    leaderId: number;
    replicaNodes: readonly number[];
    isrNodes: readonly number[];
  },
  minInsyncReplicas: number,
  registered: ReadonlySet<number>,
  report: LeaderReplicationReport | undefined,
): PartitionReplicationRow {
  const states: PartitionReplicationState[] = [];
  const reasons: string[] = [];
  const replicas = partition.replicaNodes;
  const isr = partition.isrNodes;
  const preferredLeaderId = replicas[0] ?? -1;
  if (partition.leaderId < 0) {
    states.push('offline');
    const gone = replicas.filter((brokerId) => !registered.has(brokerId));
    reasons.push(
      gone.length === replicas.length
        ? `no leader: the session of every replica's broker (${replicas.join(', ')}) ended`
        : `no leader elected from ISR [${isr.join(', ')}]${gone.length === 0 ? '' : `; ${gone.map((id) => `broker ${id}'s session ended`).join(', ')}`}`,
    );
  } else {
    if (isr.length < minInsyncReplicas) {
      states.push('under-min-isr');
      reasons.push(
        `ISR ${isr.length} < min.insync.replicas ${minInsyncReplicas}: acks=all writes are refused`,
      );
    } else if (isr.length === minInsyncReplicas && isr.length < replicas.length) {
      states.push('at-min-isr');
      reasons.push(
        `ISR ${isr.length} = min.insync.replicas ${minInsyncReplicas}: one more lost replica refuses acks=all writes`,
      );
    }
    if (isr.length < replicas.length) states.push('under-replicated');
    if (preferredLeaderId >= 0 && partition.leaderId !== preferredLeaderId) {
      states.push('non-preferred-leader');
    }
  }
  const followers = new Map((report?.followers ?? []).map((follower) => [follower.brokerId, follower]));
  const laggingFollowers: LaggingFollower[] = replicas
    .filter((brokerId) => !isr.includes(brokerId))
    .map((brokerId) => {
      const follower = followers.get(brokerId);
      const isRegistered = registered.has(brokerId);
      const reason = !isRegistered
        ? `broker ${brokerId}'s session ended`
        : follower === undefined
          ? `broker ${brokerId} is not in the ISR`
          : `broker ${brokerId} is not in the ISR: ${formatRecords(follower.lagRecords)} / ${formatSeconds(follower.lagMs)} behind`;
      return {
        brokerId,
        lagRecords: follower === undefined ? null : follower.lagRecords.toString(),
        lagMs: follower === undefined ? null : follower.lagMs,
        registered: isRegistered,
        reason,
      };
    });
  if (partition.leaderId >= 0) reasons.push(...laggingFollowers.map((follower) => follower.reason));
  if (states.includes('non-preferred-leader')) {
    reasons.push(
      `led by broker ${partition.leaderId}, not the preferred broker ${preferredLeaderId}${registered.has(preferredLeaderId) ? (isr.includes(preferredLeaderId) ? ' (in the ISR: a preferred election moves it back)' : ' (not in the ISR yet)') : ` (broker ${preferredLeaderId}'s session ended)`}`,
    );
  }
  states.sort((left, right) => (STATE_ORDER.get(left) ?? 0) - (STATE_ORDER.get(right) ?? 0));
  return {
    topic,
    partition: partition.partition,
    states,
    leaderId: partition.leaderId,
    preferredLeaderId,
    replicas: [...replicas],
    isr: [...isr],
    minInsyncReplicas,
    reasons,
    laggingFollowers,
    isrChangedAtMs: report?.isrChangedAtMs ?? null,
    leaderChangedAtMs: report?.leaderChangedAtMs ?? null,
  };
}

function formatRecords(records: bigint): string {
  return `${records.toLocaleString('en-US')} record${records === 1n ? '' : 's'}`;
}

function formatSeconds(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1_000).toLocaleString('en-US')} s`;
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
