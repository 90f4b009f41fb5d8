import { join } from 'node:path';
import { StorageError, type StorageIo } from '../log/storage';
import {
  type ClusterEvent,
  type ClusterEventRetention,
  clusterEventId,
  eventMatches,
  type NewClusterEvent,
  type StoredEventQuery,
} from './cluster-events';

const EVENTS_FILE = 'cluster-events.json';

/**
 * The replication timeline of a standalone broker: a JSON file in the data directory beside the
 * metadata file, replaced atomically like it (write a temporary file, fsync, rename), bounded by
 * the same retention as the cluster's (docs/architecture.md §6). Appends that arrive while a write
 * is under way go into the next write together.
 */
export class LocalClusterEvents {
  readonly #path: string;
  #events: ClusterEvent[] = [];
  #counter = 0;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly io: StorageIo,
    dataDirectory: string,
    private readonly retention: ClusterEventRetention,
    private readonly now: () => number = Date.now,
  ) {
    this.#path = join(dataDirectory, EVENTS_FILE);
  }

  async load(): Promise<void> {
    try {
      const text = (await this.io.readWholeFile(this.#path)).toString('utf8');
      const parsed = JSON.parse(text) as { events?: ClusterEvent[] };
      this.#events = (parsed.events ?? []).filter(
        (event) => typeof event.atMs === 'number' && typeof event.kind === 'string',
      );
    } catch (error) {
      // A missing file is an empty timeline; an unreadable one is too, since the timeline is a
      // record for operators and never decides anything the broker does.
      if (!(error instanceof StorageError && error.isNotFound) && !(error instanceof SyntaxError))
        throw error;
      this.#events = [];
    }
  }

  /** Appends events; resolves once they are durable. */
  append(events: readonly NewClusterEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    for (const event of events) {
      this.#counter = (this.#counter + 1) % 1_000_000;
      this.#events.push({ ...event, id: clusterEventId(event.atMs, this.#counter, 'local') });
    }
    this.#prune();
    return this.#write();
  }

  list(query: StoredEventQuery): ClusterEvent[] {
    const found: ClusterEvent[] = [];
    for (let index = this.#events.length - 1; index >= 0 && found.length < query.limit; index--) {
      const event = this.#events[index]!;
      if (eventMatches(event, query)) found.push(event);
    }
    return found;
  }

  /** Drops events past the retention; resolves once the file says so. */
  prune(): Promise<void> {
    const before = this.#events.length;
    this.#prune();
    return this.#events.length === before ? Promise.resolve() : this.#write();
  }

  #prune(): void {
    const cutoffMs = this.now() - this.retention.retentionMs;
    const firstKept = this.#events.findIndex((event) => event.atMs >= cutoffMs);
    if (firstKept !== 0) this.#events = firstKept < 0 ? [] : this.#events.slice(firstKept);
    const excess = this.#events.length - this.retention.maxCount;
    if (excess > 0) this.#events = this.#events.slice(excess);
  }

  #write(): Promise<void> {
    const written = this.#writing.then(() =>
      this.io.writeFileAtomic(
        this.#path,
        Buffer.from(`${JSON.stringify({ events: this.#events })}\n`, 'utf8'),
      ),
    );
    this.#writing = written.catch(() => undefined);
    return written;
  }
}
