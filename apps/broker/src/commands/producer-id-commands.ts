import { ErrorCode, WeirError } from '@weir/protocol';
import type { MetadataStore, ProducerIdBlock } from '../metadata/metadata-store';

/** How many producer ids one metadata write reserves; ids of a block lost in a crash are skipped. */
const PRODUCER_ID_BLOCK_SIZE = 1000;

/**
 * Hands out producer ids for idempotent producers (InitProducerId without a transactional id).
 * Ids come from blocks reserved durably in the metadata store, so a restart never reuses one.
 */
export class ProducerIdCommands {
  #block: ProducerIdBlock | undefined;
  #nextInBlock = 0;
  #reserving: Promise<void> | undefined;

  constructor(private readonly store: MetadataStore) {}

  async initProducerId(request: { transactionalId: string | null; transactionTimeoutMs: number }): Promise<{
    producerId: bigint;
    producerEpoch: number;
  }> {
    if (request.transactionalId !== null) {
      // The transaction coordinator comes with the transactions work; until then a transactional
      // producer is refused clearly instead of being given an id that cannot commit.
      throw new WeirError(ErrorCode.INVALID_REQUEST, {
        detail: 'transactional producers are not supported yet (transactional.id must be unset)',
      });
    }
    return { producerId: BigInt(await this.#nextProducerId()), producerEpoch: 0 };
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
