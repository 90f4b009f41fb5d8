import type { LeaderReplicationReport } from './partition-health';

/** A registered broker as the metadata advertises it on the listener the caller connected to. */
export interface ReportingBroker {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

/** What every broker said about the partitions it leads, and which brokers did not answer. */
export interface LeaderReports {
  /** Registered brokers that answered within the deadline, ascending. */
  readonly answered: number[];
  /** Registered brokers that did not answer, with why, ascending. */
  readonly unanswered: { brokerId: number; detail: string }[];
  /** The report of a partition's leader, when that leader answered and reported it. */
  reportOf(topic: string, partition: number): LeaderReplicationReport | undefined;
}

/** How {@link askEveryLeader} asks: the deadline, and who hears of each broker's answer or failure. */
export interface AskLeadersOptions {
  /** How long each broker has to answer; they are asked in parallel. */
  readonly timeoutMs: number;
  /** Called for each broker that answered (the console records its reachability). */
  readonly onAnswered?: (broker: ReportingBroker) => void;
  /** Called for each broker that failed or did not answer in time. */
  readonly onFailed?: (broker: ReportingBroker, error: unknown) => void;
}

/**
 * Asks every broker for the replication of the partitions it leads, in parallel and each within
 * the deadline. Only a partition's leader knows how far its followers are behind, so the
 * cluster's picture is the union of the answers; a broker that does not answer is named, and its
 * partitions are judged from the metadata alone. Answering at all is what counts as answered, so
 * a broker that leads nothing answers with no reports.
 */
export async function askEveryLeader(
  brokers: readonly ReportingBroker[],
  ask: (broker: ReportingBroker) => Promise<readonly LeaderReplicationReport[]>,
  options: AskLeadersOptions,
): Promise<LeaderReports> {
  const answers = await Promise.all(
    brokers.map(async (broker): Promise<BrokerAnswer> => {
      try {
        const reports = await withDeadline(ask(broker), options.timeoutMs, `broker ${broker.nodeId}`);
        options.onAnswered?.(broker);
        return { brokerId: broker.nodeId, reports };
      } catch (error) {
        options.onFailed?.(broker, error);
        return { brokerId: broker.nodeId, detail: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const reports = new Map<string, LeaderReplicationReport>();
  const answered: number[] = [];
  const unanswered: { brokerId: number; detail: string }[] = [];
  for (const answer of answers) {
    if (!('reports' in answer)) {
      unanswered.push({ brokerId: answer.brokerId, detail: answer.detail });
      continue;
    }
    answered.push(answer.brokerId);
    for (const report of answer.reports) reports.set(keyOf(report.topic, report.partition), report);
  }
  answered.sort((left, right) => left - right);
  unanswered.sort((left, right) => left.brokerId - right.brokerId);
  return { answered, unanswered, reportOf: (topic, partition) => reports.get(keyOf(topic, partition)) };
}

type BrokerAnswer =
  | { brokerId: number; reports: readonly LeaderReplicationReport[] }
  | { brokerId: number; detail: string };

function keyOf(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** Rejects with "<what> did not answer within <ms> ms" when the promise has not settled by then. */
function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
