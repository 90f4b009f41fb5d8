import { ErrorCode, WeirListAuditEvents } from '@weir/protocol';
import type { AuditQuery } from '../../../audit/audit-event';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirListAuditEvents;

/** The most events one call returns, so an answer stays far below the request size limits. */
export const MAX_AUDIT_EVENTS_PER_CALL = 1000;

/**
 * WeirListAuditEvents v0: this broker's audit log, newest first, filtered and paged
 * (audit/audit-log.ts). Needs DESCRIBE on the cluster. A limit outside 1..1000 or an outcome
 * other than "ok" or "failed" is refused with INVALID_REQUEST naming the field.
 */
export const weirListAuditEventsHandler = defineHandler({
  api: WeirListAuditEvents,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster))
      return { ...deniedError(RULES.cluster), events: [], nextBeforeId: null };
    const invalid = (errorMessage: string) => ({
      errorCode: ErrorCode.INVALID_REQUEST,
      errorMessage,
      events: [],
      nextBeforeId: null,
    });
    if (request.limit < 1 || request.limit > MAX_AUDIT_EVENTS_PER_CALL)
      return invalid(`limit must be 1..${MAX_AUDIT_EVENTS_PER_CALL}, got ${request.limit}`);
    const outcome = request.outcome;
    if (outcome !== null && outcome !== 'ok' && outcome !== 'failed')
      return invalid(`outcome must be "ok" or "failed", got ${JSON.stringify(outcome)}`);
    const query: AuditQuery = {
      limit: request.limit,
      ...(request.sinceMs < 0n ? {} : { sinceMs: Number(request.sinceMs) }),
      ...(request.untilMs < 0n ? {} : { untilMs: Number(request.untilMs) }),
      ...(request.principal === null ? {} : { principal: request.principal }),
      ...(request.action === null ? {} : { action: request.action }),
      ...(request.resourceName === null ? {} : { resourceName: request.resourceName }),
      ...(outcome === null ? {} : { outcome }),
      ...(request.beforeId === null ? {} : { beforeId: request.beforeId }),
    };
    const page = services.audit.list(query);
    return {
      ...NO_ERROR,
      events: page.events.map((event) => ({
        id: event.id,
        atMs: BigInt(event.atMs),
        brokerId: event.brokerId,
        principal: event.principal,
        clientId: event.clientId,
        clientHost: event.clientHost,
        listener: event.listener,
        action: event.action,
        resourceType: event.resourceType,
        resourceName: event.resourceName,
        input: JSON.stringify(event.input),
        outcomeCode: event.outcomeCode,
        outcomeMessage: event.outcomeMessage ?? null,
      })),
      nextBeforeId: page.nextBeforeId ?? null,
    };
  },
});
