import { errorCodeInfo } from '../../errors/error-codes';
import type { WeirListAuditEvents } from '../../messages/apis/internal/weir-list-audit-events';
import type { RequestOf, ResponseOf } from '../../schema/api';
import type { AuditEventQuery, AuditEventRow } from './audit-event-types';

/** A query as the wire carries it: -1 and null for the filters not given. */
export function auditQueryBody(query: AuditEventQuery): RequestOf<typeof WeirListAuditEvents> {
  return {
    sinceMs: BigInt(query.sinceMs ?? -1),
    untilMs: BigInt(query.untilMs ?? -1),
    principal: query.principal ?? null,
    action: query.action ?? null,
    resourceName: query.resourceName ?? null,
    outcome: query.outcome ?? null,
    beforeId: query.beforeId ?? null,
    limit: query.limit,
  };
}

/** An event off the wire, its input parsed and its outcome named. */
export function auditEventFrom(row: ResponseOf<typeof WeirListAuditEvents>['events'][number]): AuditEventRow {
  let input: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.input);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      input = parsed as Record<string, unknown>;
  } catch {
    // A summary that is not JSON is shown as it came.
    input = { text: row.input };
  }
  return {
    id: row.id,
    atMs: Number(row.atMs),
    brokerId: row.brokerId,
    principal: row.principal,
    clientId: row.clientId,
    clientHost: row.clientHost,
    listener: row.listener,
    action: row.action,
    resourceType: row.resourceType,
    resourceName: row.resourceName,
    input,
    outcomeCode: row.outcomeCode,
    outcomeName: errorCodeInfo(row.outcomeCode)?.name ?? `code ${row.outcomeCode}`,
    ...(row.outcomeMessage === null ? {} : { outcomeMessage: row.outcomeMessage }),
  };
}
