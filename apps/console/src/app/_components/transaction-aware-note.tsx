import { Badge } from '@weir/ui';

/**
 * Says how lag is measured wherever it is shown: against the last stable offset, so records of
 * transactions still open (and transaction markers) are not counted as lag.
 */
export function TransactionAwareNote() {
  return (
    <Badge
      tone="accent"
      title="Lag = last stable offset − committed offset. Records of open transactions are not readable by read_committed consumers yet, and markers are never delivered, so neither counts as lag."
    >
      transaction-aware: measured against the last stable offset
    </Badge>
  );
}
