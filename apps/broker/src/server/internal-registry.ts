import type { ApiHandler } from './handler';
import { weirDescribeBrokerHandler } from './handlers/internal/weir-describe-broker';
import { weirDescribeGroupLagsHandler } from './handlers/internal/weir-describe-group-lags';
import { weirDescribePartitionsHandler } from './handlers/internal/weir-describe-partitions';
import { weirListTopicSummariesHandler } from './handlers/internal/weir-list-topic-summaries';
import { weirScanRecordsHandler } from './handlers/internal/weir-scan-records';

/**
 * The Weir-only APIs (keys 32000 and up) the internal listener serves beside the client
 * listener's Kafka APIs. The client listener never serves or advertises them.
 */
export function internalHandlers(): ApiHandler[] {
  return [
    weirDescribeBrokerHandler,
    weirListTopicSummariesHandler,
    weirDescribePartitionsHandler,
    weirDescribeGroupLagsHandler,
    weirScanRecordsHandler,
  ] as ApiHandler[];
}
