import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { CoordinatorLink } from './coordinator-link';
import type { GenerationOffset } from './group-consumer-options';
import { commitOffsets, type OffsetToCommit } from './group-offsets';
import type { PartitionPositions } from './partition-positions';

/** Who commits: the member as the coordinator knows it right now. */
export interface CommittingMember {
  readonly groupId: string;
  readonly groupInstanceId: string | null;
  readonly memberId: () => string;
}

/**
 * A group member's offset commits, by hand and automatic. Only the work of the generation in
 * `generation` may be committed: once a rebalance starts, commits of the ending generation fail
 * locally with REBALANCE_IN_PROGRESS, so no stale commit reaches the broker.
 */
export class GroupCommits {
  /** The generation whose work may still be committed; undefined from the rejoin until assigned. */
  generation: number | undefined;
  readonly #coordinator: CoordinatorLink;
  readonly #positions: PartitionPositions;
  readonly #member: CommittingMember;
  #autoCommitTimer: ReturnType<typeof setInterval> | undefined;

  constructor(coordinator: CoordinatorLink, positions: PartitionPositions, member: CommittingMember) {
    this.#coordinator = coordinator;
    this.#positions = positions;
    this.#member = member;
  }

  /**
   * The generation `offsets` may be committed in. Throws REBALANCE_IN_PROGRESS when an entry is
   * stamped with another generation than the current one, or when there is no current one.
   */
  generationFor(offsets: readonly (OffsetToCommit | GenerationOffset)[]): number {
    const generationId = this.generation;
    for (const entry of offsets) {
      const stamped = 'generationId' in entry ? entry.generationId : generationId;
      if (generationId === undefined || stamped !== generationId) {
        throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, {
          detail: `not committing ${entry.topic}-${entry.partition}: its generation ${stamped ?? '(none)'} is over.`,
        });
      }
    }
    return generationId!;
  }

  /** Commits the processed positions every `intervalMs` until {@link stopAuto}. */
  startAuto(intervalMs: number): void {
    this.#autoCommitTimer = setInterval(() => {
      this.commitProcessed().catch(() => {});
    }, intervalMs);
  }

  stopAuto(): void {
    clearInterval(this.#autoCommitTimer);
    this.#autoCommitTimer = undefined;
  }

  /** Auto commit: the processed positions that moved since the last commit. */
  async commitProcessed(): Promise<void> {
    const generationId = this.generation;
    if (generationId === undefined) return;
    await this.commitAs(generationId, this.#positions.movedSinceCommit(generationId));
  }

  async commitAs(generationId: number, offsets: readonly OffsetToCommit[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.#coordinator.withRetries(async (send) => {
      // Checked again before every send: a rebalance may have started while waiting to retry.
      if (this.generation !== generationId) {
        throw new WeirError(ErrorCode.REBALANCE_IN_PROGRESS, {
          detail: `not committing for generation ${generationId}: it is over.`,
        });
      }
      await commitOffsets(send, {
        groupId: this.#member.groupId,
        generationId,
        memberId: this.#member.memberId(),
        groupInstanceId: this.#member.groupInstanceId,
        offsets: offsets.map(({ topic, partition, offset, metadata }) => ({
          topic,
          partition,
          offset,
          metadata: metadata ?? null,
        })),
      });
    });
    this.#positions.markCommitted(offsets);
  }
}
