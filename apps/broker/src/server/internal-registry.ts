import type { ApiHandler } from './handler';
import { describeProducersHandler } from './handlers/describe-producers';
import { describeTransactionsHandler } from './handlers/describe-transactions';
import { weirAbortTransactionHandler } from './handlers/internal/weir-abort-transaction';
import { weirDeleteUserHandler } from './handlers/internal/weir-delete-user';
import { weirDescribeBrokerHandler } from './handlers/internal/weir-describe-broker';
import { weirDescribeEffectivePermissionsHandler } from './handlers/internal/weir-describe-effective-permissions';
import { weirDescribeGroupLagsHandler } from './handlers/internal/weir-describe-group-lags';
import { weirDescribePartitionsHandler } from './handlers/internal/weir-describe-partitions';
import { weirListTopicSummariesHandler } from './handlers/internal/weir-list-topic-summaries';
import { weirListUsersHandler } from './handlers/internal/weir-list-users';
import { weirScanRecordsHandler } from './handlers/internal/weir-scan-records';
import { weirUpsertUserHandler } from './handlers/internal/weir-upsert-user';
import { weirVerifyCredentialsHandler } from './handlers/internal/weir-verify-credentials';
import { listTransactionsHandler } from './handlers/list-transactions';

/**
 * The Weir-only APIs (keys 32000 and up) the internal listener serves beside the client
 * listener's Kafka APIs, and Kafka's transaction inspection APIs (DescribeTransactions,
 * ListTransactions, DescribeProducers): Kafka defines them only in flexible versions, and the
 * client listener advertises no flexible version but ApiVersions v3 (docs/kafka-compat.md §0). The client
 * listener never serves or advertises any of them.
 */
export function internalHandlers(): ApiHandler[] {
  return [
    weirDescribeBrokerHandler,
    weirListTopicSummariesHandler,
    weirDescribePartitionsHandler,
    weirDescribeGroupLagsHandler,
    weirScanRecordsHandler,
    weirAbortTransactionHandler,
    weirListUsersHandler,
    weirUpsertUserHandler,
    weirDeleteUserHandler,
    weirVerifyCredentialsHandler,
    weirDescribeEffectivePermissionsHandler,
    describeTransactionsHandler,
    listTransactionsHandler,
    describeProducersHandler,
  ] as ApiHandler[];
}
