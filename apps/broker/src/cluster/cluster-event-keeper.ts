import type { ClusterEventRetention, NewClusterEvent } from '../metadata/cluster-events';
import type { ClusterView } from '../metadata/cluster-view';
import type { MetadataStore } from '../metadata/metadata-store';

export interface ClusterEventKeeperDeps {
  view: ClusterView;
  store: Pick<MetadataStore, 'listClusterEvents'>;
  /** Writes events that no assignment change carries. */
  append(events: readonly NewClusterEvent[]): Promise<void>;
  /** Drops events past the retention. */
  prune(retention: ClusterEventRetention): Promise<unknown>;
  localBrokerId: number;
  retention: ClusterEventRetention;
  /** How often the controller prunes the timeline. */
  pruneIntervalMs: number;
  now(): number;
  logger: { warn(fields: object, message: string): void };
}

/** How many recent session events the controller compares with the registrations. */
const SESSION_EVENTS_READ = 2000;

/**
 * The controller's share of the replication timeline (docs/architecture.md §6): a broker that
 * stops writes its own session end, but one whose lease expired cannot, so the controller records
 * it when the registration vanishes ("session expired"); a broker that becomes controller records
 * the ends it missed while there was another controller or none ("session expired, noticed by the
 * new controller"). Both details start alike because both ends are expiries: which one a broker's
 * end gets depends only on whether its lease or the old controller's went first.
 * It also prunes the timeline periodically.
 */
export class ClusterEventKeeper {
  #stopFollowing: (() => void) | undefined;
  #pruneTimer: NodeJS.Timeout | undefined;
  #wasController = false;
  #running: Promise<void> | undefined;
  #again: string | undefined;

  constructor(private readonly deps: ClusterEventKeeperDeps) {}

  start(): void {
    this.#stopFollowing = this.deps.view.onChange((changes) => {
      const isController = this.deps.view.controllerId === this.deps.localBrokerId;
      if (isController && !this.#wasController)
        this.#reconcile('session expired, noticed by the new controller');
      else if (
        isController &&
        changes.some((change) => change.kind === 'broker' && change.broker === undefined)
      )
        this.#reconcile('session expired');
      this.#wasController = isController;
    });
    this.#pruneTimer = setInterval(() => {
      if (this.deps.view.controllerId !== this.deps.localBrokerId) return;
      this.deps
        .prune(this.deps.retention)
        .catch((error) => this.deps.logger.warn({ err: error }, 'pruning the cluster events failed'));
    }, this.deps.pruneIntervalMs);
    this.#pruneTimer.unref();
  }

  stop(): void {
    this.#stopFollowing?.();
    clearInterval(this.#pruneTimer);
  }

  /** One comparison at a time, so two passes never both record the same session's end. */
  #reconcile(detail: string): void {
    if (this.#running !== undefined) {
      this.#again = this.#again ?? detail;
      return;
    }
    this.#running = this.#endMissedSessions(detail)
      .catch((error) => this.deps.logger.warn({ err: error }, 'recording ended broker sessions failed'))
      .finally(() => {
        this.#running = undefined;
        const again = this.#again;
        this.#again = undefined;
        if (again !== undefined) this.#reconcile(again);
      });
  }

  async #endMissedSessions(detail: string): Promise<void> {
    const events = await this.deps.store.listClusterEvents({
      limit: SESSION_EVENTS_READ,
      kinds: ['broker-session-started', 'broker-session-ended'],
    });
    const ended = new Set<string>();
    const open: NewClusterEvent[] = [];
    // Newest first: an end is seen before the start it closes.
    for (const event of events) {
      if (event.sessionId === undefined || event.brokerId === undefined) continue;
      if (event.kind === 'broker-session-ended') ended.add(event.sessionId);
      else if (event.kind === 'broker-session-started' && !ended.has(event.sessionId)) {
        ended.add(event.sessionId);
        if (this.deps.view.broker(event.brokerId)?.sessionId === event.sessionId) continue;
        open.push({
          atMs: this.deps.now(),
          kind: 'broker-session-ended',
          brokerId: event.brokerId,
          sessionId: event.sessionId,
          detail,
        });
      }
    }
    if (this.deps.view.controllerId === this.deps.localBrokerId) await this.deps.append(open);
  }
}
