import type { Writable } from 'node:stream';
import { type ClusterStatus, LEADER_REPORT_TIMEOUT_MS, readClusterStatus } from './cluster-status';
import type { InternalSession } from './internal-session';
import { formatTable } from './table';

/** Exit status when a partition needs attention or a broker did not answer; 0 means healthy. */
export const EXIT_NEEDS_ATTENTION = 1;

/**
 * `weir cluster status`: the cluster id, the controller, the brokers and the partitions needing
 * attention with the ISR page's words, or the healthy line; `--json` prints one JSON document.
 * The exit status is 0 when healthy and 1 otherwise, so scripts and probes can act on it.
 */
export async function clusterStatusCommand(
  session: Pick<InternalSession, 'admin' | 'node'>,
  options: { json: boolean; timeoutMs?: number },
  deps: { stdout: Writable },
): Promise<number> {
  const status = await readClusterStatus({
    admin: session.admin,
    // Only a partition's leader knows how far its followers are behind, so every broker is asked.
    ask: (broker) => session.node(broker).describeReplication(),
    timeoutMs: options.timeoutMs ?? LEADER_REPORT_TIMEOUT_MS,
  });
  deps.stdout.write(options.json ? `${JSON.stringify(status, null, 2)}\n` : statusText(status));
  return status.healthy ? 0 : EXIT_NEEDS_ATTENTION;
}

/** The status as text: a header, the brokers table, then the healthy line or what needs attention. */
export function statusText(status: ClusterStatus): string {
  const lines = [
    `cluster id: ${status.clusterId ?? '(none)'}`,
    `controller: ${status.controllerId < 0 ? 'none' : `broker ${status.controllerId}`}`,
    '',
  ];
  const brokers = formatTable(
    ['ID', 'HOST:PORT', 'RACK', 'STATE', 'CONTROLLER', 'LEADS', 'FOLLOWS'],
    status.brokers.map((broker) => [
      String(broker.id),
      broker.host === null ? '-' : `${broker.host}:${broker.port}`,
      broker.rack ?? '-',
      broker.state,
      broker.controller ? 'yes' : '',
      String(broker.leads),
      String(broker.follows),
    ]),
  );
  const checked = `${status.partitionCount} partition${plural(status.partitionCount)} of ${status.topicCount} topic${plural(status.topicCount)} checked on ${status.answeredBrokers.length} broker${plural(status.answeredBrokers.length)}`;
  if (status.healthy) return `${lines.join('\n')}\n${brokers}\nhealthy: ${checked}\n`;
  const attention = [`needs attention: ${status.partitions.length} of ${checked}`];
  for (const silent of status.unansweredBrokers) {
    attention.push(`broker ${silent.brokerId} did not say what it leads: ${silent.detail}`);
  }
  const partitions =
    status.partitions.length === 0
      ? ''
      : `\n${formatTable(
          ['PARTITION', 'STATE', 'REASON'],
          status.partitions.map((row) => [
            `${row.topic}-${row.partition}`,
            row.states.join(','),
            row.reasons.join('; '),
          ]),
        )}`;
  return `${lines.join('\n')}\n${brokers}\n${attention.join('\n')}\n${partitions}`;
}

function plural(count: number): string {
  return count === 1 ? '' : 's';
}
