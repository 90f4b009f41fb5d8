import type { PartitionDetail, TopicAllowedActionsView } from '../../../../server/api/schemas/topics';
import { AddPartitionsForm } from './add-partitions-form';
import { DeleteRecordsForm } from './delete-records-form';

type TopicMaintenanceProps = {
  topic: string;
  partitions: readonly PartitionDetail[];
  allowedActions: TopicAllowedActionsView;
};

/**
 * Changes that cannot be undone, kept apart from the read-only tabs, each with its own confirm.
 * Denied ones stay visible with the server's reason on their button.
 */
export function TopicMaintenance({ topic, partitions, allowedActions }: TopicMaintenanceProps) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <AddPartitionsForm
        topic={topic}
        currentCount={partitions.length}
        permission={allowedActions.addPartitions}
      />
      <DeleteRecordsForm topic={topic} partitions={partitions} permission={allowedActions.deleteRecords} />
    </div>
  );
}
