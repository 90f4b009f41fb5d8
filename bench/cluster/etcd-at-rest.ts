import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrometheusFamily } from 'parse-prometheus-text-format';
import { processCpuMs } from '../broker/proc-stat';
import type { ClusterSetup } from './bench-setups';
import { REST_SECONDS } from './cluster-config';
import { type ClusterReport, progress } from './cluster-report';
import { increase, scrapeMetrics, sumByLabel } from './prometheus-samples';

/** The one kind of call a cluster at rest is expected to make: renewing its leases. */
const KEEPALIVE_METHOD = 'LeaseKeepAlive';
const STREAM_TYPES = ['bidi_stream', 'server_stream', 'client_stream'];

/**
 * Calls etcd has served so far, by gRPC method, from its own metrics: completed unary calls
 * (`grpc_server_handled_total`), and for streaming methods the messages clients sent on them
 * (`grpc_server_msg_received_total`), since a lease keep-alive or watch stream stays open and
 * each renewal or watch request is one message on it.
 */
function callsByMethod(families: readonly PrometheusFamily[]): Map<string, number> {
  const calls = sumByLabel(families, 'grpc_server_handled_total', 'grpc_method', { grpc_type: 'unary' });
  for (const grpcType of STREAM_TYPES) {
    const messages = sumByLabel(families, 'grpc_server_msg_received_total', 'grpc_method', {
      grpc_type: grpcType,
    });
    for (const [method, count] of messages) calls.set(method, (calls.get(method) ?? 0) + count);
  }
  return calls;
}

/**
 * With no client traffic, counts the calls etcd serves over REST_SECONDS (read from etcd's
 * `/metrics`, so independent of the broker's code) and the CPU the brokers and etcd use meanwhile.
 * Two rows: every call, and the calls that are not lease keep-alives (target: none).
 */
export async function measureEtcdAtRest(
  cluster: ClusterSetup,
  ttls: { sessionTtlSeconds: number; controllerTtlSeconds: number },
  report: ClusterReport,
): Promise<void> {
  const measurement = `etcd calls at rest over ${REST_SECONDS} s`;
  await report.attempt(cluster.name, measurement, async () => {
    const member = cluster.etcd.member(0);
    const metricsUrl = `${member.clientUrl}/metrics`;
    progress(`${cluster.name}: counting etcd calls at rest for ${REST_SECONDS} s`);
    const pids = cluster.serverPids();
    const cpuBeforeMs = pids.map(processCpuMs);
    const etcdCpuBeforeMs = processCpuMs(member.pid);
    const before = callsByMethod(await scrapeMetrics(metricsUrl));
    const startedMs = performance.now();
    await sleep(REST_SECONDS * 1000);
    const after = callsByMethod(await scrapeMetrics(metricsUrl));
    const seconds = (performance.now() - startedMs) / 1000;
    const brokersCpuMs = pids.reduce(
      (total, pid, index) => total + processCpuMs(pid) - cpuBeforeMs[index]!,
      0,
    );
    const etcdCpuMs = processCpuMs(member.pid) - etcdCpuBeforeMs;
    const calls = increase(before, after);
    const total = [...calls.values()].reduce((sum, count) => sum + count, 0);
    const others = [...calls].filter(([method]) => method !== KEEPALIVE_METHOD);
    const otherCount = others.reduce((sum, [, count]) => sum + count, 0);
    const listed = [...calls]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([method, count]) => `${method} ${count}`)
      .join(', ');
    // Each broker holds two leases, its session and its election candidacy, and the etcd3 client
    // renews a lease every third of its TTL.
    const expectedPerSecond =
      cluster.serverPids().length * (3 / ttls.sessionTtlSeconds + 3 / ttls.controllerTtlSeconds);
    report.notes.push(
      `etcd at rest (${seconds.toFixed(1)} s, no client traffic): ${listed || 'no calls'}; the brokers used ` +
        `${(brokersCpuMs / seconds / 10).toFixed(1)}% of a core together, etcd ${(etcdCpuMs / seconds / 10).toFixed(1)}%. Keep-alives expected from the leases ` +
        `(a session and an election lease per broker, each renewed every TTL/3): ${expectedPerSecond.toFixed(1)}/s.`,
    );
    const allRow = {
      setup: cluster.name,
      measurement: `${measurement}, every call`,
      eventsPerSecond: { count: total, seconds },
    };
    const otherRow = {
      setup: cluster.name,
      measurement: `${measurement}, beyond ${KEEPALIVE_METHOD}`,
      eventsPerSecond: { count: otherCount, seconds },
    };
    report.setTarget(otherRow, 'none', otherCount, {
      kind: 'at-most',
      threshold: 0,
      reference: 'keep-alives',
      referenceValue: Math.max(1, total - otherCount),
    });
    return [allRow, otherRow];
  });
}
