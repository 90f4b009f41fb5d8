import type { MetadataStore, ProducerIdBlock } from '../metadata/metadata-store';

/** How many producer ids one metadata write reserves; ids of a block lost in a crash are skipped. */
const PRODUCER_ID_BLOCK_SIZE = 1000;

/**
 * Hands out producer ids: to idempotent producers (InitProducerId without a transactional id), and
 * to the transaction coordinator for new transactional ids. Ids come from blocks reserved durably
 * in the metadata store, so a restart never reuses one.
 */
export class ProducerIdManager {
  #block: ProducerIdBlock | undefined;
  #nextInBlock = 0;
  #reserving: Promise<void> | undefined;

  constructor(private readonly store: MetadataStore) {}

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
