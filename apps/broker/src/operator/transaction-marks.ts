import type { AbortedTransaction } from '../log/transaction-index';

/** Where a scanned record stands in its transaction (WeirScanRecords v2's `transactionStatus`). */
export type ScanTransactionStatus = 'none' | 'committed' | 'aborted' | 'open';

/** The open transactions of a partition at the start of a scan: producer id → first offset. */
export type OpenTransactionStarts = ReadonlyMap<number, number>;

/**
 * Tells a scan whether a transactional batch was committed, aborted or is still open, from the two
 * sources a read_committed Fetch uses (docs/architecture.md, transactions): the segments'
 * aborted-transaction indexes, whose entries come with each read (an entry spans its producer's
 * offsets from the transaction's first offset to its ABORT marker), and the producer state's open
 * transactions, taken with the high watermark when the scan's range was fixed. A transactional
 * batch inside an aborted entry of its producer is aborted; one at or after its producer's open
 * transaction's first offset is open (such a batch lies at or past the last stable offset, which
 * is the earliest of those first offsets); any other was decided by a COMMIT marker.
 */
export class TransactionMarks {
  readonly #abortedByProducer = new Map<number, AbortedTransaction[]>();
  readonly #seen = new Set<string>();

  constructor(private readonly openTransactions: OpenTransactionStarts) {}

  /** Adds the aborted transactions a read returned; the same entry may come with several reads. */
  addAborted(entries: readonly AbortedTransaction[]): void {
    for (const entry of entries) {
      const key = `${entry.producerId}:${entry.lastOffset}`;
      if (this.#seen.has(key)) continue;
      this.#seen.add(key);
      const list = this.#abortedByProducer.get(entry.producerId);
      if (list === undefined) this.#abortedByProducer.set(entry.producerId, [entry]);
      else list.push(entry);
    }
  }

  /** The status of a data batch's records, from its header. */
  statusOf(transactional: boolean, producerId: number, baseOffset: number): ScanTransactionStatus {
    if (!transactional) return 'none';
    const aborted = this.#abortedByProducer.get(producerId);
    if (aborted?.some((entry) => entry.firstOffset <= baseOffset && baseOffset <= entry.lastOffset)) {
      return 'aborted';
    }
    const openFrom = this.openTransactions.get(producerId);
    if (openFrom !== undefined && baseOffset >= openFrom) return 'open';
    return 'committed';
  }
}
