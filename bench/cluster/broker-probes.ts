import { Connection, Metadata, ZERO_UUID } from '@weir/protocol';
import type { ClusterBroker } from '../../apps/broker/test/cluster/broker-cluster';

/** A probe that does not answer within this is a failed probe (the broker is down or paused). */
const PROBE_TIMEOUT_MS = 2000;

/**
 * A connection of its own to each broker of the cluster, for asking one broker in particular
 * what its Metadata says (the SDK's client would pick any broker). A broker that died is asked
 * again on a new connection once it is back.
 */
export class BrokerProbes {
  readonly #connections = new Map<number, Connection>();

  async #connectionTo(broker: ClusterBroker): Promise<Connection> {
    let connection = this.#connections.get(broker.nodeId);
    if (connection === undefined || connection.status.state === 'closed') {
      connection = new Connection({
        host: broker.host,
        port: broker.ports.client,
        clientId: 'bench-cluster-probe',
        connectTimeoutMs: PROBE_TIMEOUT_MS,
        requestTimeoutMs: PROBE_TIMEOUT_MS,
      });
      this.#connections.set(broker.nodeId, connection);
    }
    await connection.ready();
    return connection;
  }

  /** One Metadata request to `broker` for `topics` (`[]`: brokers and controller only). */
  async metadata(broker: ClusterBroker, topics: readonly string[]) {
    const connection = await this.#connectionTo(broker);
    return connection.send(Metadata, {
      topics: topics.map((name) => ({ topicId: ZERO_UUID, name })),
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
  }

  close(): void {
    for (const connection of this.#connections.values()) connection.close();
    this.#connections.clear();
  }
}
