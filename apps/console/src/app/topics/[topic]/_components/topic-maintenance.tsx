import type { PartitionDetail } from '../../../../server/api/schemas/topics';
import { AddPartitionsForm } from './add-partitions-form';
import { DeleteRecordsForm } from './delete-records-form';

type TopicMaintenanceProps = { topic: string; partitions: readonly PartitionDetail[] };

/** Changes that cannot be undone, kept apart from the read-only tabs, each with its own confirm. */
export function TopicMaintenance({ topic, partitions }: TopicMaintenanceProps) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <AddPartitionsForm topic={topic} currentCount={partitions.length} />
      <DeleteRecordsForm topic={topic} partitions={partitions} />
    </div>
  );
}
