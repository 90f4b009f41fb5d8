import { join } from 'node:path';
import { StorageError, type StorageFile, type StorageIo } from '../log/storage';
import {
  type AuditEvent,
  type AuditPage,
  type AuditQuery,
  auditEventId,
  auditEventMatches,
  auditSequenceOf,
  type NewAuditEvent,
} from './audit-event';

const AUDIT_FILE = 'audit-log.jsonl';

/** How long the audit log keeps events, and how many at most. */
export interface AuditRetention {
  maxEvents: number;
  retentionMs: number;
}

/**
 * One broker's audit log (docs/architecture.md §8): a file of JSON lines in the data directory,
 * appended and fdatasynced before the request that caused the events is answered, so an answered
 * action is on disk. The kept events are also in memory, newest last, for listing. The file is
 * bounded: once it would hold more than twice the maximum count of lines, it is rewritten
 * atomically with only the kept events. A torn last line (a crash mid-append) is dropped at load.
 */
export class AuditLog {
  readonly #path: string;
  #events: AuditEvent[] = [];
  #file: StorageFile | undefined;
  #fileBytes = 0;
  #fileLines = 0;
  #sequence = 0;
  #lastAtMs = 0;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly io: StorageIo,
    private readonly dataDirectory: string,
    private readonly brokerId: number,
    private readonly retention: AuditRetention,
    private readonly now: () => number = Date.now,
  ) {
    this.#path = join(dataDirectory, AUDIT_FILE);
  }

  async open(): Promise<void> {
    let text = '';
    try {
      text = (await this.io.readWholeFile(this.#path)).toString('utf8');
    } catch (error) {
      if (!(error instanceof StorageError && error.isNotFound)) throw error;
    }
    const lines = text.split('\n');
    let torn = false;
    for (const line of lines) {
      if (line === '') continue;
      const event = parseEvent(line);
      if (event === undefined) torn = true;
      else this.#events.push(event);
    }
    const last = this.#events.at(-1);
    this.#sequence = last === undefined ? 0 : auditSequenceOf(last.id);
    this.#lastAtMs = last?.atMs ?? 0;
    this.#prune();
    this.#fileLines = lines.filter((line) => line !== '').length;
    // A torn or partly pruned file is rewritten now, so appends always follow a whole line.
    if (torn || (text !== '' && !text.endsWith('\n')) || this.#fileLines !== this.#events.length) {
      await this.#compact();
    } else {
      this.#fileBytes = Buffer.byteLength(text, 'utf8');
      this.#file = await this.io.openFile(this.#path, 'create');
      // A new file's name is durable only once its directory is.
      if (text === '') await this.io.syncDirectory(this.dataDirectory);
    }
  }

  /** Appends events; resolves once they are on disk. */
  append(events: readonly NewAuditEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    const stored = events.map((event) => {
      // Time never runs backwards within the log, so its order is its ids' order.
      const atMs = Math.max(event.atMs, this.#lastAtMs);
      this.#lastAtMs = atMs;
      this.#sequence += 1;
      return {
        ...event,
        atMs,
        id: auditEventId(atMs, this.brokerId, this.#sequence),
        brokerId: this.brokerId,
      };
    });
    this.#events.push(...stored);
    this.#prune();
    const bytes = Buffer.from(stored.map((event) => `${JSON.stringify(event)}\n`).join(''), 'utf8');
    const written = this.#writing.then(() => this.#appendBytes(bytes, stored.length));
    this.#writing = written.catch(() => undefined);
    return written;
  }

  /** Matching events, newest first, at most `query.limit`, with the cursor for the next page. */
  list(query: AuditQuery): AuditPage {
    const cutoffMs = this.now() - this.retention.retentionMs;
    const found: AuditEvent[] = [];
    let more = false;
    for (let index = this.#events.length - 1; index >= 0; index--) {
      const event = this.#events[index]!;
      if (event.atMs < cutoffMs) break;
      if (!auditEventMatches(event, query)) continue;
      if (found.length === query.limit) {
        more = true;
        break;
      }
      found.push(event);
    }
    return more ? { events: found, nextBeforeId: found.at(-1)!.id } : { events: found };
  }

  /** The number of events kept. */
  get size(): number {
    return this.#events.length;
  }

  async close(): Promise<void> {
    await this.#writing;
    const file = this.#file;
    this.#file = undefined;
    await file?.close();
  }

  async #appendBytes(bytes: Buffer, lines: number): Promise<void> {
    // Rewriting writes the new events too: they are in memory already.
    if (this.#file === undefined || this.#fileLines + lines > 2 * this.retention.maxEvents) {
      await this.#compact();
      return;
    }
    await this.#file.writev([bytes], this.#fileBytes);
    await this.#file.datasync();
    this.#fileBytes += bytes.length;
    this.#fileLines += lines;
  }

  async #compact(): Promise<void> {
    await this.#file?.close();
    this.#file = undefined;
    const text = this.#events.map((event) => `${JSON.stringify(event)}\n`).join('');
    const bytes = Buffer.from(text, 'utf8');
    await this.io.writeFileAtomic(this.#path, bytes);
    this.#fileBytes = bytes.length;
    this.#fileLines = this.#events.length;
    this.#file = await this.io.openFile(this.#path, 'read-write');
  }

  #prune(): void {
    const cutoffMs = this.now() - this.retention.retentionMs;
    let first = 0;
    while (first < this.#events.length && this.#events[first]!.atMs < cutoffMs) first++;
    first = Math.max(first, this.#events.length - this.retention.maxEvents);
    if (first > 0) this.#events = this.#events.slice(first);
  }
}

function parseEvent(line: string): AuditEvent | undefined {
  try {
    const event = JSON.parse(line) as AuditEvent;
    if (typeof event.id !== 'string' || typeof event.atMs !== 'number' || typeof event.action !== 'string')
      return undefined;
    return event;
  } catch {
    return undefined;
  }
}
