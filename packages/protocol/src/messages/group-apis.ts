import type { ApiSchema } from '../schema/api';
import { ConsumerGroupDescribe } from './apis/consumer-group-describe';
import { ConsumerGroupHeartbeat } from './apis/consumer-group-heartbeat';
import { DeleteGroups } from './apis/delete-groups';
import { DescribeGroups } from './apis/describe-groups';
import { FindCoordinator } from './apis/find-coordinator';
import { Heartbeat } from './apis/heartbeat';
import { JoinGroup } from './apis/join-group';
import { LeaveGroup } from './apis/leave-group';
import { ListGroups } from './apis/list-groups';
import { ListOffsets } from './apis/list-offsets';
import { OffsetCommit } from './apis/offset-commit';
import { OffsetDelete } from './apis/offset-delete';
import { OffsetFetch } from './apis/offset-fetch';
import { OffsetForLeaderEpoch } from './apis/offset-for-leader-epoch';
import { SaslAuthenticate } from './apis/sasl-authenticate';
import { SaslHandshake } from './apis/sasl-handshake';
import { SyncGroup } from './apis/sync-group';

/** Consumer-group (classic and KIP-848), offset, coordinator, ListOffsets and SASL APIs. */
export const GROUP_APIS: readonly ApiSchema[] = [
  ListOffsets,
  OffsetForLeaderEpoch,
  OffsetCommit,
  OffsetFetch,
  FindCoordinator,
  JoinGroup,
  Heartbeat,
  LeaveGroup,
  SyncGroup,
  DescribeGroups,
  ListGroups,
  SaslHandshake,
  SaslAuthenticate,
  DeleteGroups,
  OffsetDelete,
  ConsumerGroupHeartbeat,
  ConsumerGroupDescribe,
];
