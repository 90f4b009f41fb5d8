import { AUDIT_ACTIONS } from '@weir/protocol/names';
import {
  createLoader,
  type inferParserType,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import type { AuditListInput } from '../../../server/api/schemas/audit';

/** Events per page of the audit page. */
export const AUDIT_PAGE_SIZE = 50;

export const auditOutcomes = ['ok', 'failed'] as const;

/**
 * The audit page's URL state: the REST route's filters under the same names, and the cursor of
 * the page shown (none: the newest). Each change is a history entry, so Back returns to the newer
 * page or the previous filters.
 */
export const auditListParams = {
  principal: parseAsString.withDefault(''),
  action: parseAsStringLiteral(AUDIT_ACTIONS),
  resource: parseAsString.withDefault(''),
  outcome: parseAsStringLiteral(auditOutcomes),
  since: parseAsInteger,
  until: parseAsInteger,
  cursor: parseAsString,
};

export type AuditListParams = inferParserType<typeof auditListParams>;

export const loadAuditListParams = createLoader(auditListParams);

/** The `audit.list` input for the URL state; the server's prefetch and the client use the same one. */
export function auditListInput(params: AuditListParams): AuditListInput {
  return {
    pageSize: AUDIT_PAGE_SIZE,
    ...(params.principal === '' ? {} : { principal: params.principal }),
    ...(params.action === null ? {} : { action: params.action }),
    ...(params.resource === '' ? {} : { resource: params.resource }),
    ...(params.outcome === null ? {} : { outcome: params.outcome }),
    ...(params.since === null ? {} : { since: params.since }),
    ...(params.until === null ? {} : { until: params.until }),
    ...(params.cursor === null ? {} : { cursor: params.cursor }),
  };
}
