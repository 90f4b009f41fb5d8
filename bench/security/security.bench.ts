import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCertificateAuthority, issueServerCertificate } from '@weir/broker/cli/certs-generate';
import {
  Admin,
  Client,
  type ClientOptions,
  Producer,
  type ProducerMessage,
  scramSaltedPassword,
  WeirError,
} from '@weir/protocol';
import { benchValue, Window } from '../broker/phase';
import { ownCpuMs, processCpuMs } from '../broker/proc-stat';
import { type ServiceChild, startServiceChild } from '../broker/run-child';
import type { WeirBrokerInput } from '../broker/weir-broker';
import { runBenchMain } from '../harness/run-bench-main';
import { type Column, formatCount, formatRate, formatTable } from '../harness/table';
import { type ConnectRate, connectOnce, connectRate } from './auth-rate';

/**
 * `npm run bench:security`: produce throughput of 1 KiB records over PLAINTEXT, SSL and SASL_SSL
 * (SCRAM-SHA-256), and new authenticated connections per second (SCRAM-SHA-256, SCRAM-SHA-512 and
 * PLAIN over SASL_SSL, beside plain TCP and TLS-only connections), in one run. Target (issue 8):
 * SASL_SSL ≥ 70% of PLAINTEXT throughput for 1 KiB records. One broker per protocol, each in a
 * child process built by `bench/broker/weir-broker.ts`, all three up at once so the produce rounds
 * can alternate between them and a drift of the (shared) machine hits every protocol alike.
 */

const PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_SSL'] as const;
type Protocol = (typeof PROTOCOLS)[number];
const ACKS = [-1, 1] as const;
type Acks = (typeof ACKS)[number];

const VALUE_BYTES = 1024;
const PARTITIONS = 4;
/** Records per `send` call. */
const RECORDS_PER_SEND = 100;
/** The producer keeps this many sends in flight, as a streaming app would. */
const SENDS_IN_FLIGHT = 16;
/**
 * Each (protocol, acks) pair is measured this many times, alternating with the others (in an
 * order rotated per round), and its median round is reported: the machine is shared, and a burst of
 * someone else's work then spoils one round of one protocol rather than the comparison.
 */
const ROUNDS = 5;
const RECORDS_PER_ROUND = 100_000;
const WARMUP_RECORDS = 20_000;
const TARGET_RATIO = 0.7;
/** Beyond this ratio of the SSL and SASL_SSL brokers' CPU per MB, the run is flagged. */
const TLS_CPU_SPREAD_WARNING = 1.5;

/** Each connection-rate measure runs this long, or until this many connections. */
const AUTH_SECONDS = 2;
const MAX_CONNECTIONS = 5000;
const AUTH_WARMUP_CONNECTIONS = 20;
/** Connections opened at once by the concurrent connection-rate measures. */
const AUTH_CONCURRENCY = 8;
const SASL_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512', 'PLAIN'] as const;
/** The iterations of the bootstrap admin's credentials (the broker's default). */
const SCRAM_ITERATIONS = 8192;
const PBKDF2_SAMPLES = 50;

/** The bootstrap admin of the SASL_SSL broker: SCRAM-SHA-256 and -512 credentials, 8192 iterations. */
const ADMIN = { username: 'bench-admin', password: 'bench-admin-secret-4f9e' } as const;
/** The whole run is killed after this long. */
const RUN_TIMEOUT_MS = 170_000;

interface Measure {
  records: number;
  seconds: number;
  /** CPU time the broker's process and this (the client's) process used meanwhile. */
  brokerCpuMs: number;
  clientCpuMs: number;
}

interface Target {
  readonly protocol: Protocol;
  readonly broker: ServiceChild<{ port: number }>;
  readonly bootstrap: string;
  /** TLS and SASL settings of every client of this broker (SCRAM-SHA-256 on SASL_SSL). */
  readonly clientOptions: Partial<ClientOptions>;
}

/** A CA and a server certificate for 127.0.0.1 from `weir certs dev`'s generator, written to `dir`. */
async function writeCertificates(dir: string): Promise<{ certFile: string; keyFile: string; caPem: string }> {
  const ca = createCertificateAuthority('Weir bench CA');
  const server = issueServerCertificate(ca, ['127.0.0.1', 'localhost']);
  const certFile = join(dir, 'server.pem');
  const keyFile = join(dir, 'server-key.pem');
  await writeFile(certFile, server.certPem);
  await writeFile(keyFile, server.keyPem, { mode: 0o600 });
  return { certFile, keyFile, caPem: ca.certPem };
}

function brokerInput(
  protocol: Protocol,
  dataDir: string,
  certs: { certFile: string; keyFile: string },
): WeirBrokerInput {
  const tls = { certFile: certs.certFile, keyFile: certs.keyFile };
  switch (protocol) {
    case 'PLAINTEXT':
      return { dataDir, flushMs: 1000 };
    case 'SSL':
      return { dataDir, flushMs: 1000, clientListener: { securityProtocol: 'SSL', tls } };
    case 'SASL_SSL':
      return {
        dataDir,
        flushMs: 1000,
        clientListener: { securityProtocol: 'SASL_SSL', tls },
        // Failed logins keep the default delay; successful ones, the ones measured, are never delayed.
        security: { bootstrapAdmin: { ...ADMIN } },
      };
  }
}

function clientOptions(protocol: Protocol, caPem: string): Partial<ClientOptions> {
  switch (protocol) {
    case 'PLAINTEXT':
      return {};
    case 'SSL':
      return { tls: { ca: caPem } };
    case 'SASL_SSL':
      return { tls: { ca: caPem }, sasl: { mechanism: 'SCRAM-SHA-256', ...ADMIN } };
  }
}

function topicName(acks: Acks): string {
  return acks === -1 ? 'bench-acks-all' : 'bench-acks-1';
}

/**
 * `count` records with a window of sends in flight; a new producer, so its setup is timed too.
 * `brokerPid`'s CPU is read from /proc around the run.
 */
async function produce(
  client: Client,
  brokerPid: number,
  topic: string,
  acks: Acks,
  count: number,
): Promise<Measure> {
  const producer = new Producer(client, { acks });
  const value = benchValue(VALUE_BYTES);
  const chunk: ProducerMessage[] = Array.from({ length: RECORDS_PER_SEND }, () => ({ value }));
  const window = new Window(SENDS_IN_FLIGHT);
  const startBrokerCpuMs = processCpuMs(brokerPid);
  const startClientCpuMs = ownCpuMs();
  const startMs = performance.now();
  try {
    for (let sent = 0; sent < count; sent += RECORDS_PER_SEND)
      await window.add(producer.send({ topic, messages: chunk }));
    await window.drain();
    return {
      records: count,
      seconds: (performance.now() - startMs) / 1000,
      brokerCpuMs: processCpuMs(brokerPid) - startBrokerCpuMs,
      clientCpuMs: ownCpuMs() - startClientCpuMs,
    };
  } finally {
    await producer.close();
  }
}

/** Fails the run unless the SASL_SSL listener refuses a wrong password (so SASL is really on). */
async function checkRefusesWrongPassword(target: Target): Promise<void> {
  try {
    await connectOnce(target.bootstrap, {
      ...target.clientOptions,
      sasl: { mechanism: 'SCRAM-SHA-256', username: ADMIN.username, password: 'not-the-password' },
    });
  } catch (error) {
    if (error instanceof WeirError) return;
    throw error;
  }
  throw new Error('the SASL_SSL broker accepted a wrong password');
}

async function startTargets(dataDirs: Map<Protocol, string>, certDir: string): Promise<Target[]> {
  const certs = await writeCertificates(certDir);
  const started = await Promise.allSettled(
    PROTOCOLS.map((protocol) =>
      startServiceChild('weir-broker', brokerInput(protocol, dataDirs.get(protocol)!, certs), 30_000),
    ),
  );
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) {
    await Promise.allSettled(
      started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.stop(10_000) : undefined)),
    );
    throw failed.reason;
  }
  return started.map((outcome, index) => {
    const broker = (outcome as PromiseFulfilledResult<ServiceChild<{ port: number }>>).value;
    const protocol = PROTOCOLS[index]!;
    return {
      protocol,
      broker,
      bootstrap: `127.0.0.1:${broker.value.port}`,
      clientOptions: clientOptions(protocol, certs.caPem),
    };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function medianRate(measures: readonly Measure[]): number {
  return median(measures.map((measure) => measure.records / measure.seconds));
}

/** Median CPU ms per MB of values, of the broker or the client: steadier than rates on a busy machine. */
function medianCpuPerMb(measures: readonly Measure[], side: 'brokerCpuMs' | 'clientCpuMs'): number {
  return median(measures.map((measure) => measure[side] / ((measure.records * VALUE_BYTES) / 1e6)));
}

/**
 * Milliseconds of one SCRAM salted password (what a SCRAM client computes per login and a broker
 * per PLAIN login), one after another in this process: the floor under the authentication rates.
 */
async function pbkdf2Ms(mechanism: 'SCRAM-SHA-256' | 'SCRAM-SHA-512'): Promise<number> {
  const salt = Buffer.alloc(24, 7);
  await scramSaltedPassword(mechanism, ADMIN.password, salt, SCRAM_ITERATIONS);
  const startMs = performance.now();
  for (let index = 0; index < PBKDF2_SAMPLES; index++)
    await scramSaltedPassword(mechanism, ADMIN.password, salt, SCRAM_ITERATIONS);
  return (performance.now() - startMs) / PBKDF2_SAMPLES;
}

function ratio(value: number, baseline: number): string {
  return `${formatCount((100 * value) / baseline)}%`;
}

function produceResult(measure: Measure): string {
  const rate = measure.records / measure.seconds;
  const mb = (measure.records * VALUE_BYTES) / 1e6;
  return (
    `${formatCount(rate)} rec/s, ${formatRate((rate * VALUE_BYTES) / 1e6)} MB/s; CPU ms/MB ` +
    `broker ${(measure.brokerCpuMs / mb).toFixed(2)}, client ${(measure.clientCpuMs / mb).toFixed(2)}`
  );
}

/** Certificates and the brokers' data, removed at the end (by the watchdog too). */
let scratchDir: string | undefined;

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(os.tmpdir(), 'weir-bench-security-'));
  scratchDir = scratch;
  const dataDirs = new Map(PROTOCOLS.map((protocol) => [protocol, join(scratch, protocol.toLowerCase())]));
  let targets: Target[] = [];
  const clients: Client[] = [];
  try {
    targets = await startTargets(dataDirs, scratch);
    for (const target of targets)
      console.error(`${target.protocol} broker pid ${target.broker.pid} on ${target.bootstrap}`);
    const sasl = targets.find((target) => target.protocol === 'SASL_SSL')!;
    console.error('checking that the SASL_SSL broker refuses a wrong password (it logs a warning)…');
    await checkRefusesWrongPassword(sasl);

    const clientOf = new Map<Protocol, Client>();
    for (const target of targets) {
      const client = new Client({
        ...target.clientOptions,
        bootstrapServers: [target.bootstrap],
        clientId: 'bench-security',
      });
      clients.push(client);
      clientOf.set(target.protocol, client);
      await new Admin(client).createTopics(
        ['warmup', ...ACKS.map(topicName)].map((name) => ({
          name,
          partitions: PARTITIONS,
          replicationFactor: 1,
        })),
      );
    }

    console.error('warming up…');
    for (const target of targets)
      for (const acks of ACKS)
        await produce(clientOf.get(target.protocol)!, target.broker.pid, 'warmup', acks, WARMUP_RECORDS);

    const brokerPidOf = new Map(targets.map((target) => [target.protocol, target.broker.pid]));
    const rounds = new Map<string, Measure[]>();
    const key = (protocol: Protocol, acks: Acks) => `${protocol}/${acks}`;
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated each round, so no protocol always runs first (right after a switch of acks).
      const order = PROTOCOLS.map((_, index) => PROTOCOLS[(index + round) % PROTOCOLS.length]!);
      for (const acks of ACKS) {
        for (const protocol of order) {
          const measure = await produce(
            clientOf.get(protocol)!,
            brokerPidOf.get(protocol)!,
            topicName(acks),
            acks,
            RECORDS_PER_ROUND,
          );
          console.error(
            `round ${round + 1}/${ROUNDS} acks=${acks === -1 ? 'all' : acks} ${protocol}: ${produceResult(measure)}`,
          );
          const measures = rounds.get(key(protocol, acks)) ?? [];
          measures.push(measure);
          rounds.set(key(protocol, acks), measures);
        }
      }
    }
    // The long-lived clients are done; closing them keeps their sockets out of the connection rates.
    await Promise.all(clients.map((client) => client.close()));

    const rows: string[][] = [];
    for (const acks of ACKS) {
      const label = acks === -1 ? 'acks=all, idempotent' : 'acks=1';
      const baseline = rounds.get(key('PLAINTEXT', acks))!;
      for (const protocol of PROTOCOLS) {
        const measures = rounds.get(key(protocol, acks))!;
        const rate = medianRate(measures);
        // Against PLAINTEXT in the same round (seconds apart), so the machine's drift cancels out.
        const vsPlaintext = median(
          measures.map(
            (measure, round) =>
              measure.records / measure.seconds / (baseline[round]!.records / baseline[round]!.seconds),
          ),
        );
        const mbs = measures.map((measure) => (measure.records * VALUE_BYTES) / measure.seconds / 1e6);
        const targeted = protocol === 'SASL_SSL';
        rows.push([
          `produce 1 KiB, ${label}, ${protocol === 'SASL_SSL' ? 'SASL_SSL (SCRAM-SHA-256)' : protocol}`,
          `${formatCount(rate)} rec/s, ${formatRate((rate * VALUE_BYTES) / 1e6)} MB/s ` +
            `(rounds ${formatCount(Math.min(...mbs))}–${formatCount(Math.max(...mbs))}); CPU ms/MB ` +
            `broker ${medianCpuPerMb(measures, 'brokerCpuMs').toFixed(2)}, ` +
            `client ${medianCpuPerMb(measures, 'clientCpuMs').toFixed(2)}`,
          protocol === 'PLAINTEXT' ? '(baseline)' : `${formatCount(100 * vsPlaintext)}%`,
          targeted ? `≥ ${TARGET_RATIO * 100}% of PLAINTEXT` : protocol === 'SSL' ? '(for reference)' : '',
          targeted ? (vsPlaintext >= TARGET_RATIO ? 'met' : 'MISSED') : '',
        ]);
      }
    }

    const connectKinds: { label: string; target: Target; options: Partial<ClientOptions> }[] = [
      { label: 'PLAINTEXT (no TLS, no SASL)', target: targets[0]!, options: targets[0]!.clientOptions },
      { label: 'SSL (TLS handshake, no SASL)', target: targets[1]!, options: targets[1]!.clientOptions },
      ...SASL_MECHANISMS.map((mechanism) => ({
        label: `SASL_SSL ${mechanism}`,
        target: sasl,
        options: { ...sasl.clientOptions, sasl: { mechanism, ...ADMIN } },
      })),
    ];
    for (const concurrency of [1, AUTH_CONCURRENCY]) {
      const mode = concurrency === 1 ? 'one at a time' : `${concurrency} at once`;
      let baseline: ConnectRate | undefined;
      for (const kind of connectKinds) {
        console.error(`connections, ${kind.label}, ${mode}…`);
        for (let index = 0; index < AUTH_WARMUP_CONNECTIONS; index++)
          await connectOnce(kind.target.bootstrap, kind.options);
        const measured = await connectRate(
          kind.target.bootstrap,
          kind.options,
          concurrency,
          AUTH_SECONDS,
          MAX_CONNECTIONS,
        );
        baseline ??= measured;
        const rate = measured.connections / measured.seconds;
        const authenticates = kind.label.startsWith('SASL_SSL');
        rows.push([
          `${authenticates ? 'authentications' : 'connections'}/s, ${kind.label}, ${mode} (${formatCount(measured.connections)})`,
          `${formatCount(rate)} /s`,
          kind === connectKinds[0] ? '(baseline)' : ratio(rate, baseline.connections / baseline.seconds),
          '(for reference)',
          '',
        ]);
      }
    }

    for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'] as const) {
      const ms = await pbkdf2Ms(mechanism);
      rows.push([
        `${mechanism} salted password alone (PBKDF2, ${formatCount(SCRAM_ITERATIONS)} iterations, one login's worth)`,
        `${formatRate(ms)} ms`,
        '',
        '(for reference)',
        '',
      ]);
    }

    const columns: Column[] = [
      { title: 'measure' },
      { title: 'result', alignRight: true },
      { title: 'vs PLAINTEXT', alignRight: true },
      { title: 'target' },
      { title: 'verdict' },
    ];
    console.log(
      `Weir security: three brokers in child processes (PLAINTEXT, SSL, SASL_SSL with SCRAM-SHA-256; RSA 2048 ` +
        `server certificate, SCRAM credentials of ${formatCount(SCRAM_ITERATIONS)} iterations), SDK clients in this process on 127.0.0.1. ` +
        `Produce: the median of ${ROUNDS} alternating rounds of ${formatCount(RECORDS_PER_ROUND)} records per protocol ` +
        `(vs PLAINTEXT: the median of the rounds' ratios), ` +
        `${RECORDS_PER_SEND} records per send, ${SENDS_IN_FLIGHT} sends in flight, ${PARTITIONS} partitions, ` +
        `${VALUE_BYTES} B values, MB/s of values, CPU of the broker's process and of this one (the client) per MB. Connections: a new Client each (TCP, TLS, ApiVersions, ` +
        `SASL, Metadata, close) for ${AUTH_SECONDS} s; SCRAM's PBKDF2 runs in the client, PLAIN's in the ` +
        `broker; ${os.cpus().length} CPUs`,
    );
    console.log(formatTable(columns, rows));
    // SSL and SASL_SSL move data alike once connected; a broker process that costs far more CPU per
    // MB than its twin all run long (seen in some runs, either one) skews the verdict.
    for (const acks of ACKS) {
      const ssl = medianCpuPerMb(rounds.get(key('SSL', acks))!, 'brokerCpuMs');
      const saslSsl = medianCpuPerMb(rounds.get(key('SASL_SSL', acks))!, 'brokerCpuMs');
      const spread = Math.max(ssl, saslSsl) / Math.min(ssl, saslSsl);
      if (spread > TLS_CPU_SPREAD_WARNING)
        console.log(
          `warning: at acks=${acks === -1 ? 'all' : acks} the SSL and SASL_SSL brokers' CPU per MB differ ` +
            `${formatRate(spread)}× (${ssl.toFixed(2)} vs ${saslSsl.toFixed(2)} ms/MB): the ` +
            `${ssl > saslSsl ? 'SSL broker process is in a slow state (more GC); its rows are' : 'SASL_SSL broker process is in a slow state (more GC); its rows and the verdict are'} ` +
            'not representative, run again',
        );
    }
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(targets.map((target) => target.broker.stop(10_000)));
    await rm(scratch, { recursive: true, force: true });
  }
}

runBenchMain(main, {
  name: 'security',
  timeoutMs: RUN_TIMEOUT_MS,
  killing: 'the brokers',
  onTimeout: () => {
    if (scratchDir !== undefined) rmSync(scratchDir, { recursive: true, force: true });
  },
});
