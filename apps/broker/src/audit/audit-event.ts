/**
 * One administrative action on one resource, as the broker that handled it recorded it
 * (docs/architecture.md §8): who (the connection's principal, which is the delegated user when the
 * console acts for one), from where (client id, address, listener), what (action, resource, a
 * compact summary of the input) and how it ended (the Kafka error code, NONE when it succeeded).
 */
export interface AuditEvent {
  /** Sorts by time as a string, the same way on every broker (see {@link auditEventId}). */
  id: string;
  atMs: number;
  brokerId: number;
  principal: string;
  clientId: string;
  clientHost: string;
  listener: string;
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceName: string;
  /** What was asked, without secrets (no passwords): configs set, ACL bindings, offsets, reason. */
  input: Record<string, unknown>;
  outcomeCode: number;
  outcomeMessage?: string;
}

/** The actions the broker audits, one per admin request kind and resource. */
export type AuditAction =
  | 'create-topic'
  | 'delete-topic'
  | 'create-partitions'
  | 'alter-configs'
  | 'create-acl'
  | 'delete-acls'
  | 'upsert-user'
  | 'delete-user'
  | 'delete-records'
  | 'delete-offsets'
  | 'delete-group'
  | 'commit-offsets'
  | 'abort-transaction';

export type AuditResourceType = 'topic' | 'group' | 'broker' | 'acl' | 'user' | 'transactional-id';

/** An event before the log gives it its id and the broker's number. */
export type NewAuditEvent = Omit<AuditEvent, 'id' | 'brokerId'>;

/** Which events to list, newest first. */
export interface AuditQuery {
  sinceMs?: number;
  untilMs?: number;
  /** Contained in the principal, case-insensitively. */
  principal?: string;
  action?: string;
  /** Contained in the resource name, case-insensitively. */
  resourceName?: string;
  outcome?: 'ok' | 'failed';
  /** Only events older than this id (the last id of the previous page). */
  beforeId?: string;
  limit: number;
}

export interface AuditPage {
  events: AuditEvent[];
  /** The cursor for the next (older) page; undefined when there is none. */
  nextBeforeId?: string;
}

/**
 * Time, broker and sequence, zero-padded: string order is time order, ties broken the same way
 * everywhere, so the console can merge the brokers' pages and page on by one cursor.
 */
export function auditEventId(atMs: number, brokerId: number, sequence: number): string {
  return `${String(atMs).padStart(15, '0')}-${String(brokerId).padStart(10, '0')}-${String(sequence).padStart(12, '0')}`;
}

/** The sequence part of an id made by {@link auditEventId}. */
export function auditSequenceOf(id: string): number {
  const sequence = Number(id.slice(id.lastIndexOf('-') + 1));
  return Number.isSafeInteger(sequence) ? sequence : 0;
}

export function auditEventMatches(event: AuditEvent, query: AuditQuery): boolean {
  if (query.beforeId !== undefined && event.id >= query.beforeId) return false;
  if (query.sinceMs !== undefined && event.atMs < query.sinceMs) return false;
  if (query.untilMs !== undefined && event.atMs > query.untilMs) return false;
  if (query.action !== undefined && event.action !== query.action) return false;
  if (query.outcome !== undefined && (event.outcomeCode === 0) !== (query.outcome === 'ok')) return false;
  if (query.principal !== undefined && !containsFolded(event.principal, query.principal)) return false;
  if (query.resourceName !== undefined && !containsFolded(event.resourceName, query.resourceName))
    return false;
  return true;
}

function containsFolded(text: string, part: string): boolean {
  return text.toLowerCase().includes(part.toLowerCase());
}
