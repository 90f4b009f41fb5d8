import { join } from 'node:path';
import type { LogConfig } from '../src/log/log-config';
import { createStorageIo } from '../src/log/storage';
import { ClusterView } from '../src/metadata/cluster-view';
import { LocalMetadataStore } from '../src/metadata/local-metadata-store';
import type { BrokerRegistration } from '../src/metadata/metadata-store';
import type { ReplicaLogger } from '../src/replica/metadata-applier';
import { ReplicaManager } from '../src/replica/replica-manager';
import { TopicManager } from '../src/topics/topic-manager';
import type { TransactionMembershipCheck } from '../src/txn/transaction-contracts';

/**
 * A standalone broker's placement and replica layers without the network: the local metadata
 * store in `directory`, the cluster view following it, this broker registered, and a replica
 * manager and topic manager on top. Real files and real logs; only the listeners and the
 * coordinators are left out.
 */
export interface ReplicaFixture {
  store: LocalMetadataStore;
  view: ClusterView;
  replicas: ReplicaManager;
  topics: TopicManager;
  /** Stops the replica manager (the logs close cleanly) and stops following the store. */
  stop(): Promise<void>;
}

export interface ReplicaFixtureOptions {
  brokerId?: number;
  /** Broker-wide log settings (tests use small segments). */
  logConfig?: Partial<LogConfig>;
  /** fetch.max.bytes; Kafka's default when not given. */
  fetchMaxBytes?: number;
  /** How much of a Fetch answer is read into memory (the broker's default when not given). */
  fetchInMemoryBytes?: number;
  clock?: { nowMs(): number };
  /** The transaction coordinator's answer for transactional client batches; a test's own policy. */
  transactions?: TransactionMembershipCheck;
}

/** Refuses every transactional client batch: a fixture without a coordinator knows no transaction. */
const NO_TRANSACTIONS: TransactionMembershipCheck = { membership: async () => 'unavailable' };

const silentLogger: ReplicaLogger = { info() {}, warn() {}, error() {} };

export function registrationFor(brokerId: number, sessionId = 'test-session'): BrokerRegistration {
  return {
    brokerId,
    rack: null,
    listeners: { client: { host: '127.0.0.1', port: 9092 }, internal: null },
    sessionId,
    registeredAtMs: 0,
  };
}

export async function startReplicas(
  directory: string,
  options: ReplicaFixtureOptions = {},
): Promise<ReplicaFixture> {
  const brokerId = options.brokerId ?? 0;
  const clock = options.clock ?? { nowMs: () => Date.now() };
  const io = createStorageIo();
  const store = new LocalMetadataStore(io, directory, { brokerId });
  await store.load();
  const view = new ClusterView(brokerId);
  const unfollow = view.follow(store);
  await store.registerBroker(registrationFor(brokerId));
  const replicas = new ReplicaManager({
    localBrokerId: brokerId,
    view,
    logs: {
      dataDirectory: join(directory, 'logs'),
      ...(options.logConfig === undefined ? {} : { topicConfig: () => options.logConfig }),
      io,
      clock,
    },
    transactions: options.transactions ?? NO_TRANSACTIONS,
    traffic: { bytesIn() {}, bytesOut() {} },
    logger: silentLogger,
    clock,
    fetchMaxBytes: options.fetchMaxBytes ?? 55 * 1024 * 1024,
    replication: {
      replicaLagTimeMaxMs: 30_000,
      alterIsr: async (next) => {
        await store.compareAndSetAssignment(next);
      },
    },
    fetchInMemoryBytes: options.fetchInMemoryBytes ?? 1024 * 1024,
  });
  await replicas.start();
  const topics = new TopicManager(
    store,
    view,
    replicas,
    { defaultPartitions: 1, defaultReplicationFactor: 1 },
    clock,
  );
  return {
    store,
    view,
    replicas,
    topics,
    async stop() {
      await replicas.stop();
      unfollow();
    },
  };
}
