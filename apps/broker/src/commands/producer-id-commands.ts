import { ErrorCode, WeirError } from '@weir/protocol';
import type { MetadataStore, ProducerIdBlock } from '../metadata/metadata-store';

/** How many producer ids one metadata write reserves; ids of a block lost in a crash are skipped. */
const PRODUCER_ID_BLOCK_SIZE = 1000;

/**
 * Hands out producer ids: to idempotent producers (InitProducerId without a transactional id), and
 * to the transaction coordinator for new transactional ids. Ids come from blocks reserved durably
 * in the metadata store, so a restart never reuses one.
 */
export class ProducerIdCommands {
  #block: ProducerIdBlock | undefined;
  #nextInBlock = 0;
  #reserving: Promise<void> | undefined;

  constructor(private readonly store: MetadataStore) {}

  /** An idempotent producer's id; a transactional id is the transaction coordinator's business. */
  async initProducerId(request: { transactionalId: string | null; transactionTimeoutMs: number }): Promise<{
    producerId: bigint;
    producerEpoch: number;
  }> {
    if (request.transactionalId !== null) {
      // The InitProducerId handler routes transactional ids to the coordinator; this is a bug.
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: 'transactional producer ids come from the transaction coordinator',
      });
    }
    return { producerId: await this.allocateProducerId(), producerEpoch: 0 };
  }

  /** A producer id no one has had, from the current block or a newly reserved one. */
  async allocateProducerId(): Promise<bigint> {
    return BigInt(await this.#nextProducerId());
  }

  async #nextProducerId(): Promise<number> {
    for (;;) {
      const block = this.#block;
      if (block && this.#nextInBlock < block.firstProducerId + block.count) return this.#nextInBlock++;
      // Concurrent callers share one reservation instead of each burning a block.
      this.#reserving ??= this.store.allocateProducerIdBlock(PRODUCER_ID_BLOCK_SIZE).then(
        (reserved) => {
          this.#block = reserved;
          this.#nextInBlock = reserved.firstProducerId;
          this.#reserving = undefined;
        },
        (error: unknown) => {
          this.#reserving = undefined;
          throw error;
        },
      );
      await this.#reserving;
    }
  }
}
