import { numberFromEnvironment, type Size } from '../broker/bench-config';

/**
 * The cluster benchmark's settings: the environment knobs (read here and nowhere else in this
 * benchmark) and the workload every section runs.
 *
 * Environment knobs, for a quicker or longer run: CLUSTER_BENCH_SCALE (multiplies the record
 * counts, default 1: 300,000 × 100 B and 60,000 × 1 KiB per produce run), CLUSTER_BENCH_ROUNDS
 * (produce/consume runs per row, the median is shown; default 5: the load of other work on a
 * shared machine moves single runs by 2×), CLUSTER_BENCH_TOPICS (topics
 * created for the propagation time, default 50), CLUSTER_BENCH_FAILOVERS (controller kills,
 * default 3), CLUSTER_BENCH_REST_SECONDS (the at-rest window on etcd's metrics, default 20),
 * CLUSTER_BENCH_LEADER_KILLS (kill -9 of a partition leader for the leader failover row, default 10),
 * CLUSTER_BENCH_MOVE_MIB (the size of the partition the reassignment rows move, default 1024),
 * CLUSTER_BENCH_MOVE_THROTTLE_MIB (their throttle in MiB/s, default 20), CLUSTER_BENCH_ISR_PAGE_KILLS
 * (follower kills for the ISR page row, default 3).
 */

const SCALE = numberFromEnvironment('CLUSTER_BENCH_SCALE', 1);
export const ROUND_COUNT = Math.round(numberFromEnvironment('CLUSTER_BENCH_ROUNDS', 5));
export const TOPIC_COUNT = Math.round(numberFromEnvironment('CLUSTER_BENCH_TOPICS', 50));
export const FAILOVER_COUNT = Math.round(numberFromEnvironment('CLUSTER_BENCH_FAILOVERS', 3));
export const REST_SECONDS = numberFromEnvironment('CLUSTER_BENCH_REST_SECONDS', 20);
export const LEADER_KILL_COUNT = Math.round(numberFromEnvironment('CLUSTER_BENCH_LEADER_KILLS', 10));
/** Issue 18: the partition the reassignment rows move, and the throttle of the second move. */
export const MOVE_BYTES = Math.round(numberFromEnvironment('CLUSTER_BENCH_MOVE_MIB', 1024) * 2 ** 20);
export const MOVE_THROTTLE_BYTES_PER_SECOND = Math.round(
  numberFromEnvironment('CLUSTER_BENCH_MOVE_THROTTLE_MIB', 20) * 2 ** 20,
);
/** How long the steady producer runs before any move, for its baseline latency. */
export const STEADY_BASELINE_MS = 5000;
/** kill -9 of a follower for the ISR page row. */
export const ISR_PAGE_KILLS = Math.round(numberFromEnvironment('CLUSTER_BENCH_ISR_PAGE_KILLS', 3));
/** Bound on one move, only there so a broken cluster cannot stall the run. */
export const MOVE_TIMEOUT_MS = 10 * 60_000;

/** Brokers in the cluster; with 6 partitions each leads 2. */
export const BROKER_COUNT = 3;

export const SIZES: Size[] = [
  { label: '100 B', key: '100b', valueBytes: 100, count: Math.max(1000, Math.round(300_000 * SCALE)) },
  { label: '1 KiB', key: '1kib', valueBytes: 1024, count: Math.max(1000, Math.round(60_000 * SCALE)) },
];

/** The targets (#16, "Benchmark"). */
export const THROUGHPUT_RATIO_TARGET = 0.8;
export const PROPAGATION_P99_TARGET_MS = 200;
/** Failover must take less than this many election TTLs. */
export const FAILOVER_TTL_MULTIPLE = 2;
/** Issue 17: RF 3 acks=all at least this share of standalone acks=all. */
export const REPLICATED_RATIO_TARGET = 0.5;
/** Issue 17: p99 from kill -9 of a leader to the first produce its successor acknowledged. */
export const LEADER_FAILOVER_P99_TARGET_MS = 3000;

/** The replicated topics' replication factor and min.insync.replicas (Kafka's usual 3 and 2). */
export const REPLICATION_FACTOR = 3;
export const MIN_INSYNC_REPLICAS = 2;
/**
 * The leader failover row runs on a cluster of its own with these TTLs: the leader's session TTL
 * bounds how long its partitions stay without a leader after kill -9 (its lease must expire
 * before the controller elects), and the controller's, when the killed leader was the controller.
 * 2 s is the least either setting accepts.
 */
export const FAILOVER_SESSION_TTL_SECONDS = 2;
export const FAILOVER_CONTROLLER_TTL_SECONDS = 2;
/** How often the replication lag probe asks the leader for its high watermark. */
export const LAG_POLL_INTERVAL_MS = 2;
/** The lag probe's window on the idle cluster, its baseline. */
export const LAG_AT_REST_SECONDS = 5;

/** How often the propagation and failover probes ask each broker for Metadata. */
export const PROBE_INTERVAL_MS = 2;
/** Bounds on one propagation or failover, only there so a broken cluster cannot stall the run. */
export const PROPAGATION_TIMEOUT_MS = 30_000;
export const FAILOVER_TIMEOUT_MS = 60_000;
/** The whole run is killed after this, children included, so it always stops by itself. */
export const RUN_TIMEOUT_MS = 45 * 60_000;
