/**
 * One administrative action on one resource, as the broker that handled it recorded it
 * (WeirListAuditEvents, docs/architecture.md §8).
 */
export interface AuditEventRow {
  /** Sorts by time as a string, the same way on every broker: a cursor across merged pages. */
  readonly id: string;
  readonly atMs: number;
  /** The broker that handled the request and keeps the event. */
  readonly brokerId: number;
  /** The connection's principal: the delegated user when the console acts for one. */
  readonly principal: string;
  readonly clientId: string;
  readonly clientHost: string;
  /** The listener the request came in on: `client` or `internal`. */
  readonly listener: string;
  readonly action: string;
  readonly resourceType: string;
  readonly resourceName: string;
  /** What was asked, without secrets (configs set, ACL bindings, offsets, reason). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The Kafka error code it ended with; 0 (NONE) when it succeeded. */
  readonly outcomeCode: number;
  /** The code's name in the one ErrorCode table (`NONE`, `TOPIC_AUTHORIZATION_FAILED`, …). */
  readonly outcomeName: string;
  readonly outcomeMessage?: string;
}

/** Which events to list, newest first. */
export interface AuditEventQuery {
  readonly sinceMs?: number;
  readonly untilMs?: number;
  /** Contained in the principal, case-insensitively. */
  readonly principal?: string;
  /** One action exactly (`create-topic`, …). */
  readonly action?: string;
  /** Contained in the resource name, case-insensitively. */
  readonly resourceName?: string;
  readonly outcome?: 'ok' | 'failed';
  /** Only events older than this id: the previous page's `nextBeforeId`. */
  readonly beforeId?: string;
  /** 1..1000. */
  readonly limit: number;
}

export interface AuditEventPage {
  readonly events: readonly AuditEventRow[];
  /** The cursor for the next, older page; absent when there is none. */
  readonly nextBeforeId?: string;
}

/** The actions brokers audit, for filters and the CLI's help. */
export const AUDIT_ACTIONS = [
  'create-topic',
  'delete-topic',
  'create-partitions',
  'alter-configs',
  'create-acl',
  'delete-acls',
  'upsert-user',
  'delete-user',
  'delete-records',
  'delete-offsets',
  'delete-group',
  'commit-offsets',
  'abort-transaction',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Several brokers' pages of one query merged into one page (newest first, at most `limit`): the
 * next page starts after the last event kept, and exists when any broker had more or more events
 * came back than fit.
 */
export function mergeAuditPages(pages: readonly AuditEventPage[], limit: number): AuditEventPage {
  if (pages.length === 1) return pages[0]!;
  const all = pages
    .flatMap((page) => page.events)
    .sort((left, right) => (left.id < right.id ? 1 : left.id > right.id ? -1 : 0));
  const events = all.slice(0, limit);
  const more = all.length > limit || pages.some((page) => page.nextBeforeId !== undefined);
  const last = events.at(-1);
  return more && last !== undefined ? { events, nextBeforeId: last.id } : { events };
}
