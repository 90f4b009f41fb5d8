/**
 * Which brokers the console could not reach lately. A broker whose connection failed is skipped
 * by cluster-wide work for `retryAfterMs`, so no request waits on a dead broker's connect timeout
 * again and again; after that it is tried once more, and the first answer marks it reachable.
 * Brokers seen in any metadata answer are remembered, so one that dropped out of the cluster's
 * registrations can still be shown as gone.
 */
export interface BrokerReachability {
  /** Whether the broker failed within the last `retryAfterMs`. */
  isSkipped(nodeId: number): boolean;
  markFailed(nodeId: number, error: unknown): void;
  markAnswered(nodeId: number): void;
  /** The last failure of a broker that has not answered since, or undefined. */
  lastFailure(nodeId: number): { atMs: number; message: string } | undefined;
  /** Every broker ever seen in metadata, with its last known address. */
  remember(broker: { nodeId: number; host: string; port: number; rack: string | null }): void;
  known(): readonly { nodeId: number; host: string; port: number; rack: string | null }[];
}

export function createBrokerReachability(
  options: { retryAfterMs?: number; now?: () => number } = {},
): BrokerReachability {
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const now = options.now ?? Date.now;
  const failures = new Map<number, { atMs: number; message: string }>();
  const seen = new Map<number, { nodeId: number; host: string; port: number; rack: string | null }>();
  return {
    isSkipped(nodeId) {
      const failure = failures.get(nodeId);
      return failure !== undefined && now() - failure.atMs < retryAfterMs;
    },
    markFailed(nodeId, error) {
      failures.set(nodeId, { atMs: now(), message: error instanceof Error ? error.message : String(error) });
    },
    markAnswered(nodeId) {
      failures.delete(nodeId);
    },
    lastFailure: (nodeId) => failures.get(nodeId),
    remember(broker) {
      seen.set(broker.nodeId, { ...broker });
    },
    known: () => [...seen.values()].sort((left, right) => left.nodeId - right.nodeId),
  };
}
