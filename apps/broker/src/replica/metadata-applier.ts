import type { LogManager } from '../log/log-manager';
import type { PartitionLog } from '../log/partition-log';
import type { ClusterView } from '../metadata/cluster-view';
import type { PlacementChange } from '../metadata/metadata-store';
import type { Partition } from './partition';
import { partitionKey } from './partition-types';
import type { LeadershipListener } from './replica-manager';

/** Where the replica layer's log lines go (pino-shaped, so the broker's logger fits). */
export interface ReplicaLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface MetadataApplierDeps {
  localBrokerId: number;
  view: ClusterView;
  logs: LogManager;
  /** The replica manager's partitions; only the applier adds and removes entries. */
  partitions: Map<string, Partition>;
  createPartition(topic: string, partition: number, log: PartitionLog | undefined): Partition;
  /** Told after a partition took on its assignment (the followers' fetchers follow its leader). */
  onApplied(local: Partition): void;
  /** Told when a partition left this broker. */
  onRemoved(local: Partition): void;
  /** This broker's storage id (cluster mode), to refuse leading on a log it does not have. */
  localStorageId(): string | undefined;
  logger: ReplicaLogger;
}

/**
 * Makes the partitions this broker holds match the cluster view, one changed partition at a time
 * and one pass after another (never two at once): a partition assigned here gets its log (opened,
 * or created) and takes the role its assignment says; one no longer assigned here gives up its
 * role and its log is deleted; a topic whose configs changed gets them on its logs. Leadership
 * gained or lost is told to the listeners (the coordinators of the internal topics).
 */
export class MetadataApplier {
  /** Partitions whose assignment changed since the last pass. */
  readonly #dirty = new Set<string>();
  /** Topics whose configs changed since the last pass. */
  readonly #reconfigured = new Set<string>();
  readonly #listeners = new Set<LeadershipListener>();
  readonly #waiters: { revision: number; resolve: () => void }[] = [];
  /** Which topic incarnation each partition's log belongs to (a deleted topic's name may return). */
  readonly #topicIds = new Map<string, string>();
  #noticedRevision = 0;
  #appliedRevision = 0;
  #running: Promise<void> | undefined;

  constructor(private readonly deps: MetadataApplierDeps) {}

  onLeadershipChange(listener: LeadershipListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The first pass: every assignment in the view, and every log found on disk. */
  applyEverything(): Promise<void> {
    const { view, logs, localBrokerId } = this.deps;
    for (const assignment of view.assignmentsNaming(localBrokerId)) {
      this.#dirty.add(partitionKey(assignment.topic, assignment.partition));
    }
    for (const log of logs.logs()) this.#dirty.add(partitionKey(log.topic, log.partition));
    for (const offline of logs.offlinePartitions())
      this.#dirty.add(partitionKey(offline.topic, offline.partition));
    this.#noticedRevision = view.revision;
    return this.#run();
  }

  /** Notes what a committed batch changed and starts applying it. */
  noteChanges(changes: readonly PlacementChange[], revision: number): void {
    for (const change of changes) {
      if (change.kind === 'assignment') this.#dirty.add(partitionKey(change.topic, change.partition));
      else if (change.kind === 'topic') this.#reconfigured.add(change.name);
    }
    this.#noticedRevision = Math.max(this.#noticedRevision, revision);
    void this.#run();
  }

  /** Resolves once every change up to `revision` is applied. */
  whenApplied(revision: number): Promise<void> {
    // The view tells the applier of every revision it reaches, so nothing newer can be asked for.
    const target = Math.min(revision, this.#noticedRevision);
    if (target <= this.#appliedRevision) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiters.push({ revision: target, resolve });
      void this.#run();
    });
  }

  /** Waits for the pass in flight, if any. */
  async settle(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  #run(): Promise<void> {
    this.#running ??= this.#passes().finally(() => {
      this.#running = undefined;
      this.#resolveWaiters();
      // Changes noted after the last pass checked for work, before this ran (a burst of watch
      // events in one turn), found a run still in place and started none: start it for them.
      if (this.#hasWork()) void this.#run();
    });
    return this.#running;
  }

  #hasWork(): boolean {
    return (
      this.#dirty.size > 0 || this.#reconfigured.size > 0 || this.#appliedRevision < this.#noticedRevision
    );
  }

  async #passes(): Promise<void> {
    while (this.#hasWork()) {
      const revision = this.#noticedRevision;
      const topics = [...this.#reconfigured];
      this.#reconfigured.clear();
      const keys = [...this.#dirty];
      this.#dirty.clear();
      for (const topic of topics) this.#reconfigure(topic);
      for (const key of keys) {
        const separator = key.lastIndexOf('\u0000');
        const topic = key.slice(0, separator);
        const partition = Number(key.slice(separator + 1));
        try {
          await this.#applyOne(topic, partition);
        } catch (error) {
          // A disk error deleting or opening one partition's log must not stop the others; the
          // partition keeps its previous state, and /ready reports it if its log went offline.
          this.deps.logger.error({ topic, partition, err: error }, 'applying a partition assignment failed');
        }
      }
      this.#appliedRevision = revision;
      this.#resolveWaiters();
    }
  }

  async #applyOne(topic: string, partition: number): Promise<void> {
    const { view, logs, partitions, localBrokerId, logger } = this.deps;
    const key = partitionKey(topic, partition);
    const assignment = view.assignment(topic, partition);
    const topicId = view.topic(topic)?.topicId;
    const assignedHere = assignment?.replicas.includes(localBrokerId) === true;
    let local = partitions.get(key);
    // A topic deleted and created again under its name before this pass ran is a new partition:
    // the old incarnation's log must go, not serve the new one.
    const reincarnated = local !== undefined && topicId !== undefined && this.#topicIds.get(key) !== topicId;
    if (!assignedHere || reincarnated) {
      if (local !== undefined) {
        this.#tell(local, local.stop());
        this.deps.onRemoved(local);
        partitions.delete(key);
        this.#topicIds.delete(key);
        local = undefined;
      }
      if (logs.getLog(topic, partition) !== undefined || logs.isOffline(topic, partition)) {
        await logs.deleteLog(topic, partition);
        logger.info({ topic, partition }, 'partition log deleted: no longer assigned to this broker');
      }
      if (!assignedHere) return;
    }
    if (local === undefined) {
      let log = logs.getLog(topic, partition);
      if (log === undefined && !logs.isOffline(topic, partition)) {
        try {
          log = await logs.createLog(topic, partition);
        } catch (error) {
          // The log manager marked it offline; the partition answers KAFKA_STORAGE_ERROR.
          logger.error({ topic, partition, err: error }, 'creating a partition log failed');
        }
      }
      local = this.deps.createPartition(topic, partition, log);
      partitions.set(key, local);
      if (topicId !== undefined) this.#topicIds.set(key, topicId);
    }
    // The view may have moved on while the log was created; apply what it says now.
    const current = view.assignment(topic, partition) ?? assignment!;
    const recorded = current.memberStorage?.[String(localBrokerId)];
    const own = this.deps.localStorageId();
    if (current.leader === localBrokerId && recorded !== undefined && own !== undefined && recorded !== own) {
      // This broker led the partition on a disk it no longer has: leading now would serve an empty
      // log as the partition. The controller takes it out of the ISR; until then it waits.
      logger.warn(
        { topic, partition },
        'not leading: this data directory is not the one the partition was in sync on',
      );
      return;
    }
    this.#tell(local, local.applyAssignment(current));
    this.deps.onApplied(local);
  }

  #tell(local: Partition, transition: ReturnType<Partition['applyAssignment']>): void {
    if (transition.kind === 'refused') {
      this.deps.logger.warn(
        { topic: local.topic, partition: local.partition, reason: transition.reason },
        'stale assignment ignored',
      );
      return;
    }
    for (const listener of this.#listeners) {
      if (transition.resigned) listener.onResign(local.topic, local.partition);
      if (transition.becameLeader) listener.onBecomeLeader(local.topic, local.partition, local.leaderEpoch);
    }
  }

  #reconfigure(topic: string): void {
    const { view, logs } = this.deps;
    const record = view.topic(topic);
    if (record === undefined) return;
    const config = logs.configFor(topic);
    for (let partition = 0; partition < record.partitionCount; partition++) {
      logs.getLog(topic, partition)?.reconfigure({ ...config });
    }
  }

  #resolveWaiters(): void {
    for (let index = this.#waiters.length - 1; index >= 0; index--) {
      const waiter = this.#waiters[index]!;
      if (waiter.revision <= this.#appliedRevision) {
        this.#waiters.splice(index, 1);
        waiter.resolve();
      }
    }
  }
}
