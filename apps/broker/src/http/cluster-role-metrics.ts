import { Counter, Gauge, type Registry } from 'prom-client';

/** The broker's place in the cluster as the metrics show it. */
export interface ClusterRoleMetrics {
  /**
   * Registrations of this broker in the metadata store: its first at start and every one after a
   * lost session. More than a few in minutes is a flapping session (deploy/prometheus/weir-alerts.yml).
   */
  sessionStartsTotal: Counter;
  /** Sets where `weir_controller_active` reads whether this broker is the controller now. */
  setControllerCollector(isController: () => boolean): void;
}

/**
 * Registers `weir_controller_active` (1 on the broker that is the controller now, else 0; Kafka's
 * ActiveControllerCount), read from the broker's own controller election when scraped (not
 * the cluster view, which a broker cut off from etcd stops seeing change), and
 * `weir_broker_session_starts_total`. Summed over the cluster, the gauge is 1 when all is well:
 * 0 means no controller, so no leader is elected for partitions whose leader fails.
 */
export function registerClusterRoleMetrics(registry: Registry): ClusterRoleMetrics {
  const registers = [registry];
  let isController = (): boolean => false;
  new Gauge({
    name: 'weir_controller_active',
    help: 'Whether this broker is the cluster controller now (1) or not (0); the cluster sum should be 1.',
    registers,
    collect() {
      this.set(isController() ? 1 : 0);
    },
  });
  const sessionStartsTotal = new Counter({
    name: 'weir_broker_session_starts_total',
    help: 'Registrations of this broker in the metadata store: at start and after every lost session.',
    registers,
  });
  return {
    sessionStartsTotal,
    setControllerCollector: (next) => {
      isController = next;
    },
  };
}
