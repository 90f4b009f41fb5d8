import type { ApiSchema } from '../schema/api';
import { AddOffsetsToTxn } from './apis/add-offsets-to-txn';
import { AddPartitionsToTxn } from './apis/add-partitions-to-txn';
import { AlterClientQuotas } from './apis/alter-client-quotas';
import { AlterConfigs } from './apis/alter-configs';
import { AlterPartitionReassignments } from './apis/alter-partition-reassignments';
import { CreateAcls } from './apis/create-acls';
import { CreatePartitions } from './apis/create-partitions';
import { CreateTopics } from './apis/create-topics';
import { DeleteAcls } from './apis/delete-acls';
import { DeleteRecords } from './apis/delete-records';
import { DeleteTopics } from './apis/delete-topics';
import { DescribeAcls } from './apis/describe-acls';
import { DescribeClientQuotas } from './apis/describe-client-quotas';
import { DescribeConfigs } from './apis/describe-configs';
import { DescribeLogDirs } from './apis/describe-log-dirs';
import { DescribeProducers } from './apis/describe-producers';
import { DescribeTransactions } from './apis/describe-transactions';
import { ElectLeaders } from './apis/elect-leaders';
import { EndTxn } from './apis/end-txn';
import { IncrementalAlterConfigs } from './apis/incremental-alter-configs';
import { InitProducerId } from './apis/init-producer-id';
import { ListPartitionReassignments } from './apis/list-partition-reassignments';
import { ListTransactions } from './apis/list-transactions';
import { TxnOffsetCommit } from './apis/txn-offset-commit';
import { WriteTxnMarkers } from './apis/write-txn-markers';

/** Topic administration, configuration, ACL and transaction APIs. */
export const ADMIN_APIS: readonly ApiSchema[] = [
  CreateTopics,
  DeleteTopics,
  DeleteRecords,
  InitProducerId,
  AddPartitionsToTxn,
  AddOffsetsToTxn,
  EndTxn,
  WriteTxnMarkers,
  TxnOffsetCommit,
  DescribeAcls,
  CreateAcls,
  DeleteAcls,
  DescribeConfigs,
  AlterConfigs,
  DescribeLogDirs,
  CreatePartitions,
  IncrementalAlterConfigs,
  DescribeClientQuotas,
  AlterClientQuotas,
  ElectLeaders,
  AlterPartitionReassignments,
  ListPartitionReassignments,
  DescribeProducers,
  DescribeTransactions,
  ListTransactions,
];
