import { PeriodicRound } from '../coordination/periodic-round';
import type { ConsumerGroup } from './consumer/consumer-group';
import type { CoordinatorContext } from './coordinator-context';
import type { GroupOffsets } from './group-offsets';
import type { GroupShard } from './group-shard';
import type { CoordinatorRecord } from './offsets-records';

export interface OffsetRetentionDeps {
  context: CoordinatorContext;
  offsets: GroupOffsets;
  /** The shards whose groups are served now; only those expire. */
  activeShards(): readonly GroupShard[];
  /** The tombstones of an expired consumer-protocol group. */
  consumerTombstones(consumer: ConsumerGroup): CoordinatorRecord[];
}

/**
 * Offset retention, every `offsetsRetentionCheckIntervalMs`: expired offsets become tombstones, and
 * Empty groups left without offsets are removed (their metadata too). Only the shards this broker
 * leads and has loaded take part; a shard that loses its partition mid-round is left alone.
 */
export class OffsetRetention {
  readonly #rounds: PeriodicRound;

  constructor(private readonly deps: OffsetRetentionDeps) {
    const { scheduler, config, logger } = deps.context;
    this.#rounds = new PeriodicRound({
      scheduler,
      intervalMs: config.offsetsRetentionCheckIntervalMs,
      logger,
      failure: 'expiring committed offsets failed',
      round: () => this.runOnce(),
    });
  }

  /** Starts the periodic rounds; harmless while they already run. */
  start(): void {
    this.#rounds.start();
  }

  stop(): void {
    this.#rounds.stop();
  }

  /** One retention round over the active shards. */
  async runOnce(): Promise<{ offsetsExpired: number; groupsRemoved: number }> {
    const { context, offsets } = this.deps;
    let offsetsExpired = 0;
    let groupsRemoved = 0;
    for (const shard of this.deps.activeShards()) {
      for (const group of [...shard.groups.values()]) {
        if (shard.state !== 'active') break;
        if (group.is('Dead')) continue;
        offsetsExpired += await offsets.expire(group);
        if (shard.state !== 'active') break;
        if (group.hasNoMembers && !group.hasOffsets) {
          const consumer = group.consumer;
          consumer?.markDead();
          group.transitionTo('Dead', context.scheduler.nowMs());
          shard.groups.delete(group.groupId);
          groupsRemoved += 1;
          const tombstones = consumer
            ? this.deps.consumerTombstones(consumer)
            : [{ kind: 'group' as const, groupId: group.groupId, value: null }];
          context
            .write(group.groupId, tombstones, {
              durable: false,
            })
            .catch((error: unknown) => {
              context.logger.warn({ groupId: group.groupId, err: error }, 'writing a group tombstone failed');
            });
        }
      }
    }
    if (offsetsExpired > 0 || groupsRemoved > 0) {
      context.logger.info({ offsetsExpired, groupsRemoved }, 'committed offsets expired');
    }
    return { offsetsExpired, groupsRemoved };
  }
}
