import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import { PeriodicRound } from '../coordination/periodic-round';
import type { GroupScheduler } from '../group/group-scheduler';
import type { TransactionFinisher } from './transaction-finisher';
import { copyMetadata, transition } from './transaction-metadata';
import { isIdle } from './transaction-state';
import type { TransactionTable } from './transaction-table';

/** What the timers work on: one shard's ids and the finisher that ends its transactions. */
export interface TimedShard {
  readonly table: TransactionTable;
  readonly finisher: TransactionFinisher;
  /** False once the shard lost its partition: the round moves on to the next shard. */
  readonly leads: boolean;
}

export interface TransactionTimersDeps {
  /** The shards whose ids are served now; only those are checked. */
  activeShards(): readonly TimedShard[];
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  /** transactional.id.expiration.ms */
  idExpirationMs: number;
  /** transaction.abort.timed.out.transaction.cleanup.interval.ms; expiry runs on it too. */
  checkIntervalMs: number;
}

/**
 * The coordinator's clock-driven work, every `checkIntervalMs`, over the active shards: open
 * transactions past their timeout are aborted with the epoch bumped (so the producer that went
 * quiet is fenced, as Kafka does), and idle ids unused for `transactional.id.expiration.ms` are
 * forgotten, with a tombstone.
 */
export class TransactionTimers {
  readonly #rounds: PeriodicRound;

  constructor(private readonly deps: TransactionTimersDeps) {
    this.#rounds = new PeriodicRound({
      scheduler: deps.scheduler,
      intervalMs: deps.checkIntervalMs,
      logger: deps.logger,
      failure: 'checking transaction timeouts failed',
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

  /** One round; each id is re-checked inside its queue, since a request may have changed it. */
  async runOnce(): Promise<{ aborted: number; expired: number }> {
    let aborted = 0;
    let expired = 0;
    for (const shard of this.deps.activeShards()) {
      const counts = await this.#runShard(shard);
      aborted += counts.aborted;
      expired += counts.expired;
    }
    if (aborted > 0 || expired > 0) {
      this.deps.logger.info({ aborted, expired }, 'transaction timers ran');
    }
    return { aborted, expired };
  }

  async #runShard(shard: TimedShard): Promise<{ aborted: number; expired: number }> {
    const { scheduler, idExpirationMs } = this.deps;
    const { table, finisher } = shard;
    const timedOut = (id: string) => {
      const current = table.get(id);
      return current?.state === 'Ongoing' && current.startTimeMs + current.timeoutMs <= scheduler.nowMs();
    };
    const expired = (id: string) => {
      const current = table.get(id);
      return (
        current !== undefined &&
        isIdle(current.state) &&
        current.lastUpdateMs + idExpirationMs <= scheduler.nowMs()
      );
    };
    let abortedCount = 0;
    let expiredCount = 0;
    for (const { transactionalId: id } of table.values()) {
      if (!this.#rounds.running || !shard.leads) break;
      if (timedOut(id)) {
        await table.queue.run(id, async () => {
          const current = table.get(id);
          if (!current || !timedOut(id)) return;
          const errorCode = await finisher.fenceAndAbort(current, `timed out after ${current.timeoutMs} ms`);
          if (errorCode === ErrorCode.NONE) abortedCount += 1;
        });
      } else if (expired(id)) {
        await table.queue.run(id, async () => {
          const current = table.get(id);
          if (!current || !expired(id)) return;
          // Asserts the table (idle → Dead) before the tombstone goes out.
          transition(copyMetadata(current), 'Dead', scheduler.nowMs());
          if (await table.remove(current)) expiredCount += 1;
        });
      }
    }
    return { aborted: abortedCount, expired: expiredCount };
  }
}
