import { Button } from '@weir/ui';
import type { KeyPartition } from '../../../../../server/api/schemas/messages';

type KeyPartitionNoteProps = {
  keyPartition: KeyPartition;
  /** Runs the same search over every selected partition. */
  onSearchAll: () => void;
};

/**
 * Says that a key filter narrowed the search to one partition, and offers the way out: records
 * from a custom partitioner, or written before partitions were added, can sit elsewhere.
 */
export function KeyPartitionNote({ keyPartition, onSearchAll }: KeyPartitionNoteProps) {
  if (keyPartition === null) return null;
  return (
    <p
      role="note"
      aria-label="Key partition"
      className="flex flex-wrap items-center gap-2 rounded-md bg-sky-50 px-3 py-2 text-sky-900 text-xs dark:bg-sky-950/50 dark:text-sky-200"
    >
      <span>
        Searching partition {keyPartition.partition} only: the key hashes there (murmur2 over{' '}
        {keyPartition.partitionCount} partitions, as the default partitioner places keys).
      </span>
      <Button size="sm" variant="ghost" onClick={onSearchAll}>
        Search all partitions
      </Button>
    </p>
  );
}
