import type { AuditLog } from './audit-log';
import { type AuditedRequestFacts, auditEventsOf, isAuditedApi } from './audit-requests';

/** What the dispatcher tells about every answered request (server/dispatcher.ts). */
export interface RequestAuditor {
  /** Whether requests with this API key are audited: asked first, so others cost nothing more. */
  audits(apiKey: number): boolean;
  /** Records the events an answered request makes; resolves once they are on disk, never rejects. */
  record(apiKey: number, request: unknown, response: unknown, facts: AuditedRequestFacts): Promise<void>;
}

/**
 * The broker's auditor: the audited APIs' events go to the audit log before the answer does. A
 * failed write cannot undo the action it records, so it is logged and the answer still goes out.
 */
export function brokerAuditor(
  auditLog: AuditLog,
  logger: { error(fields: object, message: string): void },
): RequestAuditor {
  return {
    audits: isAuditedApi,
    record(apiKey, request, response, facts) {
      const events = auditEventsOf(apiKey, request, response, facts);
      return auditLog
        .append(events)
        .catch((error: unknown) =>
          logger.error({ err: error, events }, 'writing the audit log failed; the events are logged here'),
        );
    },
  };
}
