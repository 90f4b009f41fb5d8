import type { ApiSchema } from '../schema/api';
import { WeirAbortTransaction } from './apis/internal/weir-abort-transaction';
import { WeirApplyTxnOffsets } from './apis/internal/weir-apply-txn-offsets';
import { WeirDeleteUser } from './apis/internal/weir-delete-user';
import { WeirDescribeBroker } from './apis/internal/weir-describe-broker';
import { WeirDescribeEffectivePermissions } from './apis/internal/weir-describe-effective-permissions';
import { WeirDescribeGroupLags } from './apis/internal/weir-describe-group-lags';
import { WeirDescribeLagHistory } from './apis/internal/weir-describe-lag-history';
import { WeirDescribeLogCleaner } from './apis/internal/weir-describe-log-cleaner';
import { WeirDescribePartitions } from './apis/internal/weir-describe-partitions';
import { WeirDescribeReplication } from './apis/internal/weir-describe-replication';
import { WeirDescribeThroughputHistory } from './apis/internal/weir-describe-throughput-history';
import { WeirListAuditEvents } from './apis/internal/weir-list-audit-events';
import { WeirListClusterEvents } from './apis/internal/weir-list-cluster-events';
import { WeirListTopicSummaries } from './apis/internal/weir-list-topic-summaries';
import { WeirListUsers } from './apis/internal/weir-list-users';
import { WeirScanRecords } from './apis/internal/weir-scan-records';
import { WeirUpsertUser } from './apis/internal/weir-upsert-user';
import { WeirVerifyCredentials } from './apis/internal/weir-verify-credentials';
import { WeirVerifyTransactionMembership } from './apis/internal/weir-verify-transaction-membership';

/** The first API key reserved for Weir's own APIs; Kafka's keys stay far below it. */
export const WEIR_API_KEY_MIN = 32000;

/**
 * Weir's own APIs (keys 32000 and up), served only by the internal listener. They are in the codec
 * registry like any API so both sides can encode and decode them; which listener serves them is
 * the broker's handler registries' business.
 */
export const INTERNAL_APIS: readonly ApiSchema[] = [
  WeirDescribeBroker,
  WeirListTopicSummaries,
  WeirDescribePartitions,
  WeirDescribeGroupLags,
  WeirScanRecords,
  WeirAbortTransaction,
  WeirListUsers,
  WeirUpsertUser,
  WeirDeleteUser,
  WeirVerifyCredentials,
  WeirDescribeEffectivePermissions,
  WeirVerifyTransactionMembership,
  WeirApplyTxnOffsets,
  WeirListClusterEvents,
  WeirDescribeReplication,
  WeirDescribeLogCleaner,
  WeirDescribeLagHistory,
  WeirDescribeThroughputHistory,
  WeirListAuditEvents,
];

for (const api of INTERNAL_APIS) {
  if (api.apiKey < WEIR_API_KEY_MIN)
    throw new Error(`${api.name} uses key ${api.apiKey}, below Weir's range`);
}
