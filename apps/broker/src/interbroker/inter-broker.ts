import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { WeirError } from '@weir/protocol';
import type { BrokerConfig } from '../config/broker-config';
import type { Logger } from '../logger';
import type { ClusterView } from '../metadata/cluster-view';
import type { TransactionOffsetsSink } from '../txn/transaction-completion';
import type { TransactionMarkerWriter, TransactionMembershipCheck } from '../txn/transaction-contracts';
import type { TransactionCoordinator } from '../txn/transaction-coordinator';
import { InterBrokerClient } from './inter-broker-client';
import { type LoadedInterBrokerCredentials, loadInterBrokerCredentials } from './inter-broker-credentials';
import { RoutedMembershipCheck } from './routed-membership-check';
import { RoutedOffsetStaging } from './routed-offset-staging';
import { RoutedOffsetsSink } from './routed-offsets-sink';
import { RoutedTransactionMarkers } from './routed-transaction-markers';

/** Connecting to a peer may take this long before the call fails as unreachable. */
const CONNECT_TIMEOUT_MS = 5000;
/** Between attempts at a marker whose partition has no reachable leader yet. */
const MARKER_BACKOFF = { initialMs: 50, maxMs: 1000 } as const;

export interface InterBrokerDeps {
  config: BrokerConfig;
  view: ClusterView;
  /** The internal listener's token, for `token` authentication (resolved at start). */
  internalToken(): string | undefined;
  /** This broker's replica layer writing markers for the partitions it leads. */
  localMarkers: TransactionMarkerWriter;
  /** This broker's transaction coordinator. */
  localMembership: TransactionMembershipCheck;
  /** This broker's transaction coordinator, staging TxnOffsetCommit offsets. */
  localStaging: Pick<TransactionCoordinator, 'stageOffsets'>;
  /** This broker's group coordinator, storing committed transactions' offsets. */
  localOffsets: TransactionOffsetsSink;
  logger: Logger;
  /**
   * Tests: every broker, this one included, is reached through the network, so a standalone
   * broker exercises the remote paths against its own internal listener.
   */
  routeToSelfOverNetwork?: boolean;
}

/**
 * The broker's side of inter-broker traffic (docs/architecture.md §6.4): the client of the other
 * brokers' internal listeners, and the transaction paths that use it: the coordinator's marker
 * writer, the produce path's membership check, and a transaction's offsets (staged at the
 * transaction coordinator, applied at the group coordinator), each routed per call to the broker
 * the cluster view names. A standalone broker routes everything to itself, so it opens no connection.
 */
export class InterBroker {
  readonly markers: TransactionMarkerWriter;
  readonly membership: TransactionMembershipCheck;
  readonly offsets: TransactionOffsetsSink;
  readonly offsetStaging: RoutedOffsetStaging;
  /**
   * Followers' calls to their leaders, on connections of their own: a follower's fetch waits at the
   * leader for new records, and must not hold up the markers and questions behind it.
   */
  readonly leaders: InterBrokerClient;
  readonly #deps: InterBrokerDeps;
  readonly #client: InterBrokerClient;
  #credentials: LoadedInterBrokerCredentials | undefined;
  #stopping = false;

  constructor(deps: InterBrokerDeps) {
    this.#deps = deps;
    const { config, view, logger } = deps;
    const log = logger.child({ component: 'inter-broker' });
    const isRemote = (brokerId: number) =>
      deps.routeToSelfOverNetwork === true || brokerId !== view.localBrokerId;
    const nowMs = () => performance.now();
    const clientOptions = {
      endpointOf: (brokerId: number) => view.endpoint(brokerId, 'internal'),
      credentials: () => {
        if (this.#credentials === undefined) throw new Error('inter-broker credentials are loaded at start');
        return this.#credentials.current();
      },
      clientId: `weir-broker-${config.nodeId}`,
      requestTimeoutMs: config.cluster.interBrokerRequestTimeoutMs,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      ...localAddressOf(config.listeners.internal.host),
      nowMs,
      onConnectFailed: (brokerId: number, address: string, error: WeirError) =>
        log.warn(
          { brokerId, address, errorCode: error.code, reason: error.message },
          'cannot reach a broker',
        ),
    };
    this.#client = new InterBrokerClient(clientOptions);
    this.leaders = new InterBrokerClient({
      ...clientOptions,
      clientId: `weir-broker-${config.nodeId}-replica`,
    });
    this.markers = new RoutedTransactionMarkers({
      view,
      local: deps.localMarkers,
      peers: this.#client,
      isRemote,
      retryWindowMs: config.cluster.interBrokerRequestTimeoutMs,
      initialBackoffMs: MARKER_BACKOFF.initialMs,
      maxBackoffMs: MARKER_BACKOFF.maxMs,
      nowMs,
      delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      running: () => !this.#stopping,
    });
    this.membership = new RoutedMembershipCheck({
      view,
      local: deps.localMembership,
      peers: this.#client,
      isRemote,
      onUnreachable: (brokerId, error) =>
        log.debug({ brokerId, err: error }, 'the transaction coordinator could not be asked'),
    });
    this.offsets = new RoutedOffsetsSink({ view, local: deps.localOffsets, peers: this.#client, isRemote });
    this.offsetStaging = new RoutedOffsetStaging({
      view,
      local: deps.localStaging,
      peers: this.#client,
      isRemote,
    });
  }

  /**
   * Reads the credentials (the cluster secret, or the certificate); the internal listener accepts
   * the secret from then on. Call before the listeners serve.
   */
  async start(): Promise<void> {
    const { config, logger } = this.#deps;
    if (
      config.cluster.etcdEndpoints.length > 0 &&
      config.cluster.interBrokerAuthentication === 'token' &&
      config.listeners.internal.token === undefined
    ) {
      // A generated token differs per broker, so no other broker can present this one.
      logger.warn(
        'cluster mode authenticates brokers with the internal listener token, but none is configured: set the same listeners.internal.token on every broker, or use cluster.interBrokerAuthentication secret or certificate',
      );
    }
    this.#credentials = await loadInterBrokerCredentials(
      this.#deps.config,
      this.#deps.internalToken,
      (path) => readFile(path, 'utf8'),
    );
  }

  /** The cluster secret the internal listener accepts as the broker principal; undefined without one. */
  clusterSecret(): string | undefined {
    return this.#credentials?.clusterSecret;
  }

  /** The broker is stopping: marker writes stop waiting for leaders (the finisher retries after a restart). */
  stopping(): void {
    this.#stopping = true;
  }

  /** Closes the connections to the other brokers. */
  close(): void {
    this.#stopping = true;
    this.#client.close();
    this.leaders.close();
  }
}

/** The internal listener's host as the source of outgoing connections: a specific IP address only. */
function localAddressOf(host: string): { localAddress?: string } {
  const wildcard = host === '0.0.0.0' || host === '::';
  return isIP(host) === 0 || wildcard ? {} : { localAddress: host };
}
