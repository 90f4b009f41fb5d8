import { ErrorCode, WeirError } from '@weir/protocol';
import { OFFSETS_TOPIC } from '../group/offsets-topic';
import type { BrokerEndpoint, ClusterView, ListenerName } from '../metadata/cluster-view';
import { TRANSACTION_STATE_TOPIC } from '../txn/transaction-log';
import { partitionForKey } from './partition-for-key';

/** FindCoordinator key types (KIP-98 added the transactional one). */
export const COORDINATOR_KEY_TYPES = { group: 0, transaction: 1 } as const;

/**
 * FindCoordinator's answer (docs/architecture.md §5): the coordinator of a group or a
 * transactional id is the leader of the internal-topic partition its key hashes to, as the
 * cluster view knows it now, on the listener the request came in on. `__transaction_state` is
 * created on the first transactional lookup (Kafka creates it then too), so a broker that never
 * sees a transaction carries no empty partitions.
 */
export class CoordinatorLocator {
  constructor(
    private readonly view: ClusterView,
    /** Creates an internal topic on its first lookup (a no-op when it exists). */
    private readonly ensureTopic: { transaction: () => Promise<void>; group: () => Promise<void> },
  ) {}

  async findCoordinator(keyType: number, key: string, listener: ListenerName): Promise<BrokerEndpoint> {
    if (keyType !== COORDINATOR_KEY_TYPES.group && keyType !== COORDINATOR_KEY_TYPES.transaction) {
      throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: `unknown coordinator key type ${keyType}` });
    }
    const topic = keyType === COORDINATOR_KEY_TYPES.group ? OFFSETS_TOPIC : TRANSACTION_STATE_TOPIC;
    if (this.view.topic(topic) === undefined) {
      await (keyType === COORDINATOR_KEY_TYPES.transaction
        ? this.ensureTopic.transaction()
        : this.ensureTopic.group());
    }
    const record = this.view.topic(topic);
    if (record === undefined) {
      throw new WeirError(ErrorCode.COORDINATOR_NOT_AVAILABLE, { detail: `${topic} does not exist yet` });
    }
    const partition = partitionForKey(key, record.partitionCount);
    const leader = this.view.assignment(topic, partition)?.leader ?? -1;
    const endpoint = leader >= 0 ? this.view.endpoint(leader, listener) : undefined;
    if (endpoint === undefined) {
      throw new WeirError(ErrorCode.COORDINATOR_NOT_AVAILABLE, {
        detail: `${topic}-${partition} has no live leader`,
      });
    }
    return endpoint;
  }
}
