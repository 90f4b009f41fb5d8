import type { AuditEventRow, InternalAdminApi } from '@weir/protocol';
import type { AuditEventView, AuditList, AuditListQuery } from '../api/schemas/audit';

function view(event: AuditEventRow): AuditEventView {
  return { ...event, input: { ...event.input }, ok: event.outcomeCode === 0 };
}

/**
 * One page of the audit log, newest first. On a cluster the routed admin asks every live broker,
 * each of which keeps the actions it handled, and merges their pages (cluster/routed-internal-admin.ts).
 */
export async function readAuditEvents(
  internal: Pick<InternalAdminApi, 'listAuditEvents'>,
  query: AuditListQuery,
  now: () => number,
): Promise<AuditList> {
  const asOfMs = now();
  const page = await internal.listAuditEvents({
    limit: query.pageSize,
    ...(query.principal === undefined ? {} : { principal: query.principal }),
    ...(query.action === undefined ? {} : { action: query.action }),
    ...(query.resource === undefined ? {} : { resourceName: query.resource }),
    ...(query.outcome === undefined ? {} : { outcome: query.outcome }),
    ...(query.since === undefined ? {} : { sinceMs: query.since }),
    ...(query.until === undefined ? {} : { untilMs: query.until }),
    ...(query.cursor === undefined ? {} : { beforeId: query.cursor }),
  });
  return { asOfMs, events: page.events.map(view), nextCursor: page.nextBeforeId ?? null };
}
