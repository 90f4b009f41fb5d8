import type { Writable } from 'node:stream';
import {
  type Admin,
  type ElectionTypeName,
  ErrorCode,
  errorCodeInfo,
  type PartitionElectionResult,
} from '@weir/protocol';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** Exit status when some partition's election failed (ELECTION_NOT_NEEDED is no failure). */
export const EXIT_ELECTION_FAILED = 1;

export interface PartitionElectOptions {
  topic?: string;
  partition?: number;
  electionType: ElectionTypeName;
  json: boolean;
}

/**
 * `weir partition elect-leaders`: a preferred (default) or unclean election for one partition, a
 * topic's partitions, or every partition (Kafka's kafka-leader-election.sh), printed per partition
 * with its new leader or why there was none. Without --topic the brokers answer only the partitions
 * that needed an election, as Kafka's do.
 */
export async function partitionElectCommand(
  admin: Admin,
  options: PartitionElectOptions,
  deps: { stdout: Writable },
): Promise<number | undefined> {
  if (options.partition !== undefined && options.topic === undefined) {
    throw new UsageError('--partition needs --topic');
  }
  const partitions = await partitionsOf(admin, options);
  const results = await admin.electLeaders({
    electionType: options.electionType,
    ...(partitions === undefined ? {} : { partitions }),
  });
  const leaders = await leadersAfter(admin, results);
  const rows = results.map((result) => ({
    topic: result.topic,
    partition: result.partition,
    result: resultName(result.errorCode),
    errorCode: result.errorCode,
    ...(result.errorCode === ErrorCode.NONE || result.errorCode === ErrorCode.ELECTION_NOT_NEEDED
      ? { leader: leaders.get(`${result.topic}-${result.partition}`) ?? null }
      : { error: result.errorMessage ?? errorCodeInfo(result.errorCode)?.message ?? null }),
  }));
  if (options.json) {
    for (const row of rows) deps.stdout.write(`${JSON.stringify(row)}\n`);
  } else if (rows.length === 0) {
    deps.stdout.write('No partition needed an election: each is led by the replica it would choose.\n');
  } else {
    deps.stdout.write(
      formatTable(
        ['PARTITION', 'RESULT', 'LEADER / ERROR'],
        rows.map((row) => [
          `${row.topic}-${row.partition}`,
          row.result,
          'leader' in row ? String(row.leader ?? '') : String(row.error ?? ''),
        ]),
      ),
    );
  }
  const failed = results.some(
    (result) => result.errorCode !== ErrorCode.NONE && result.errorCode !== ErrorCode.ELECTION_NOT_NEEDED,
  );
  return failed ? EXIT_ELECTION_FAILED : undefined;
}

/** The partitions to name in the request: one, a topic's, or undefined for every partition. */
async function partitionsOf(
  admin: Admin,
  options: PartitionElectOptions,
): Promise<{ topic: string; partitions: number[] }[] | undefined> {
  if (options.topic === undefined) return undefined;
  if (options.partition !== undefined) return [{ topic: options.topic, partitions: [options.partition] }];
  const [described] = await admin.describeTopics([options.topic]);
  return [{ topic: options.topic, partitions: described!.partitions.map((p) => p.partition) }];
}

/** Each answered partition's leader as the metadata shows it after the elections. */
async function leadersAfter(
  admin: Admin,
  results: readonly PartitionElectionResult[],
): Promise<Map<string, number>> {
  const topics = [...new Set(results.map((result) => result.topic))];
  const known = results.filter((result) => result.errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  const leaders = new Map<string, number>();
  if (known.length === 0) return leaders;
  const described = await admin
    .describeTopics(topics.filter((topic) => known.some((result) => result.topic === topic)))
    .catch(() => []);
  for (const topic of described) {
    for (const partition of topic.partitions)
      leaders.set(`${topic.name}-${partition.partition}`, partition.leaderId);
  }
  return leaders;
}

function resultName(errorCode: number): string {
  if (errorCode === ErrorCode.NONE) return 'elected';
  if (errorCode === ErrorCode.ELECTION_NOT_NEEDED) return 'not needed';
  return errorCodeInfo(errorCode)?.name ?? `error ${errorCode}`;
}
