import type { Writable } from 'node:stream';
import { type AuditEventPage, type AuditEventQuery, mergeAuditPages } from '@weir/protocol';
import type { InternalSession } from './internal-session';
import { formatTable } from './table';

export interface AuditListOptions {
  query: AuditEventQuery;
  json: boolean;
}

/**
 * `weir audit list`: the administrative actions the brokers recorded, newest first, as a table or
 * one JSON line per event. Each broker keeps the actions it handled, so every broker in the
 * metadata is asked and their pages merged; a broker that does not answer is named on stderr and
 * the others are shown. The next page's cursor goes to stderr, so stdout stays the events.
 */
export async function auditListCommand(
  session: Pick<InternalSession, 'admin' | 'node'>,
  options: AuditListOptions,
  deps: { stdout: Writable; stderr: Writable },
): Promise<number | undefined> {
  const cluster = await session.admin.describeCluster();
  const pages: AuditEventPage[] = [];
  const silent: string[] = [];
  await Promise.all(
    cluster.brokers.map(async (broker) => {
      try {
        pages.push(await session.node(broker).listAuditEvents(options.query));
      } catch (error) {
        silent.push(`broker ${broker.nodeId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
  for (const line of silent) deps.stderr.write(`weir: ${line}\n`);
  if (pages.length === 0) return 1;
  const page = mergeAuditPages(pages, options.query.limit);
  if (options.json) {
    for (const event of page.events) deps.stdout.write(`${JSON.stringify(event)}\n`);
  } else {
    const rows = page.events.map((event) => [
      new Date(event.atMs).toISOString(),
      event.principal,
      event.action,
      `${event.resourceType}:${event.resourceName}`,
      event.outcomeName,
      JSON.stringify(event.input),
      `${event.clientId}@${event.clientHost}`,
    ]);
    deps.stdout.write(
      formatTable(['TIME', 'PRINCIPAL', 'ACTION', 'RESOURCE', 'OUTCOME', 'INPUT', 'CLIENT'], rows),
    );
  }
  if (page.nextBeforeId !== undefined) deps.stderr.write(`more: --before ${page.nextBeforeId}\n`);
  return silent.length === 0 ? undefined : 1;
}
