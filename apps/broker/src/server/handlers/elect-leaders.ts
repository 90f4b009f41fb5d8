import { ElectLeaders, ErrorCode, errorCodeInfo, type ResponseOf } from '@weir/protocol';
import type { ElectionResult, ElectionTarget } from '../../cluster/leader-elections';
import { ElectionType } from '../../cluster/preferred-election';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { type ApiHandler, defineHandler } from '../handler';

const RULES = API_ACL_RULES.ElectLeaders;

type ElectLeadersResponse = ResponseOf<typeof ElectLeaders>;

/**
 * ElectLeaders up to `maxVersion` (KIP-183, KIP-460): a preferred (type 0; the only one of v0) or
 * unclean (type 1) election for the named partitions, or every partition when null, each a
 * compare-and-swap on the stored assignment (cluster/leader-elections.ts), so any broker answers.
 * Per-partition results: NONE once this broker's view shows the new leader, ELECTION_NOT_NEEDED,
 * PREFERRED_LEADER_NOT_AVAILABLE, ELIGIBLE_LEADERS_NOT_AVAILABLE or UNKNOWN_TOPIC_OR_PARTITION.
 * Needs ALTER on the cluster: without it the top-level error (v1+) and every named partition's is
 * CLUSTER_AUTHORIZATION_FAILED, as in Kafka (v0 has only the partitions' to say it).
 */
function electLeadersUpTo(maxVersion: number): ApiHandler<typeof ElectLeaders> {
  return defineHandler({
    api: ElectLeaders,
    versions: { min: 0, max: maxVersion },
    async handle(request, context, services) {
      const targets = targetsOf(request.topicPartitions);
      if (!context.access.allows(RULES.cluster)) return refused(targets, RULES.cluster.denied);
      const type = request.electionType;
      if (type !== ElectionType.preferred && type !== ElectionType.unclean) {
        return refused(targets, ErrorCode.INVALID_REQUEST, `Unknown election type ${type}.`);
      }
      const results = await services.elections.elect(type, targets, { timeoutMs: request.timeoutMs });
      return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, replicaElectionResults: byTopic(results) };
    },
  });
}

/** The internal listener's: v0–2 (v2 is flexible, which only the client listener must avoid). */
export const electLeadersHandler = electLeadersUpTo(2);

/** The client listener's: v0–1, since it advertises no flexible version but ApiVersions v3. */
export const clientElectLeadersHandler = electLeadersUpTo(1);

function targetsOf(
  topicPartitions: readonly { topic: string; partitions: readonly number[] }[] | null,
): ElectionTarget[] | null {
  if (topicPartitions === null) return null;
  const seen = new Set<string>();
  const targets: ElectionTarget[] = [];
  // A partition named twice is elected (and answered) once, as Kafka's request is a set.
  for (const entry of topicPartitions) {
    for (const partition of entry.partitions) {
      const key = `${entry.topic}\u0000${partition}`;
      if (seen.has(key)) continue;
      seen.add(key);
      targets.push({ topic: entry.topic, partition });
    }
  }
  return targets;
}

function refused(
  targets: readonly ElectionTarget[] | null,
  errorCode: number,
  errorMessage: string | null = errorCodeInfo(errorCode)?.message ?? null,
): ElectLeadersResponse {
  const results = (targets ?? []).map((target) => ({ ...target, errorCode, errorMessage }));
  return { throttleTimeMs: 0, errorCode, replicaElectionResults: byTopic(results) };
}

/** Results grouped by topic, in the order the topics first appear. */
function byTopic(results: readonly ElectionResult[]): ElectLeadersResponse['replicaElectionResults'] {
  const topics = new Map<string, ElectLeadersResponse['replicaElectionResults'][number]>();
  for (const result of results) {
    let entry = topics.get(result.topic);
    if (entry === undefined) {
      entry = { topic: result.topic, partitionResult: [] };
      topics.set(result.topic, entry);
    }
    entry.partitionResult.push({
      partitionId: result.partition,
      errorCode: result.errorCode,
      errorMessage: result.errorMessage,
    });
  }
  return [...topics.values()];
}
