import { AUDIT_ACTIONS } from '@weir/protocol';
import { z } from 'zod';
import { asOfMsSchema } from './common';

/** The most events one page holds: the brokers' own limit for one WeirListAuditEvents. */
export const MAX_AUDIT_PAGE_SIZE = 1000;

const epochMsSchema = z.number().int().min(0).max(8_640_000_000_000_000);

/** A broker's event id (audit/audit-event.ts in the broker): time, broker and sequence, zero-padded. */
const auditCursorSchema = z
  .string()
  .regex(/^\d{15}-\d{10}-\d{12}$/, 'expected the nextCursor of a previous page')
  .meta({ description: 'The `nextCursor` of the previous page: only older events follow.' });

export const auditListInputSchema = z
  .object({
    /** Contained in the principal, case-insensitively (`alice` finds `User:alice`). */
    principal: z.string().min(1).max(256).optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    /** Contained in the resource name, case-insensitively. */
    resource: z.string().min(1).max(256).optional(),
    outcome: z.enum(['ok', 'failed']).optional(),
    /** Only events at or after this time (ms since the epoch). */
    since: epochMsSchema.optional(),
    /** Only events at or before this time (ms since the epoch). */
    until: epochMsSchema.optional(),
    pageSize: z.number().int().min(1).max(MAX_AUDIT_PAGE_SIZE).default(50),
    cursor: auditCursorSchema.optional(),
  })
  .superRefine((input, context) => {
    if (input.since !== undefined && input.until !== undefined && input.since > input.until) {
      context.addIssue({ code: 'custom', path: ['until'], message: 'until must not be before since' });
    }
  });

export const auditEventViewSchema = z.object({
  /** Sorts by time as a string, the same way on every broker. */
  id: z.string(),
  atMs: z.number().int(),
  /** The broker that handled the request and keeps the event. */
  brokerId: z.number().int(),
  /** Who acted: the delegated user when the console acted for one. */
  principal: z.string(),
  clientId: z.string(),
  clientHost: z.string(),
  /** `client` or `internal`: the listener the request came in on. */
  listener: z.string(),
  action: z.string(),
  resourceType: z.string(),
  resourceName: z.string(),
  /** What was asked, without secrets: configs set, ACL bindings, offsets, the abort's reason. */
  input: z.record(z.string(), z.unknown()),
  /** The outcome's Kafka error code: 0 when it succeeded. */
  outcomeCode: z.number().int(),
  /** The code's name: `NONE`, `TOPIC_AUTHORIZATION_FAILED`, … */
  outcomeName: z.string(),
  outcomeMessage: z.string().optional(),
  ok: z.boolean(),
});

export const auditListSchema = z.object({
  asOfMs: asOfMsSchema,
  /** Newest first. */
  events: z.array(auditEventViewSchema),
  /** Pass as `cursor` for the next, older page; null when there is none. */
  nextCursor: z.string().nullable(),
});

export type AuditListInput = z.input<typeof auditListInputSchema>;
export type AuditListQuery = z.output<typeof auditListInputSchema>;
export type AuditList = z.infer<typeof auditListSchema>;
export type AuditEventView = z.infer<typeof auditEventViewSchema>;
