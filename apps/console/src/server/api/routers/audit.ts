import { readAuditEvents } from '../../services/audit';
import { rest } from '../rest-meta';
import { auditListInputSchema, auditListSchema } from '../schemas/audit';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'audit';

export function auditRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/audit',
        'The audit log: who created, deleted or changed topics, configs, ACLs, users, records, offsets and transactions, and how it ended',
        "Reads the events every broker keeps of the administrative requests it handled, denied ones included (WeirListAuditEvents, DESCRIBE on CLUSTER), newest first. `principal` and `resource` match a part of the name, case-insensitively; `action` is one action; `outcome` is `ok` or `failed`; `since` and `until` are ms since the epoch. Pass the answer's `nextCursor` as `cursor` for the next, older page.",
      ),
      auditListInputSchema,
    )
      .output(auditListSchema)
      .query(({ ctx, input }) => readAuditEvents(ctx.services.broker.internal(), input, ctx.services.now)),
  });
}
