import {
  ACKS,
  CHILD_TIMEOUT_MS,
  PARTITION_COUNT,
  RECORDS_PER_SEND,
  type Size,
  sendsInFlight,
  warmupCount,
} from '../broker/bench-config';
import { type Measured, messagesPerSecond } from '../broker/bench-report';
import { measureClient, prefault } from '../broker/measure-client';
import { runChild } from '../broker/run-child';
import { createTopics, verifyCount } from '../broker/weir-service';
import { formatCount } from '../harness/table';
import { medianBy } from '../log/median';
import type { BenchSetup } from './bench-setups';
import { ROUND_COUNT, SIZES, THROUGHPUT_RATIO_TARGET } from './cluster-config';
import { type ClusterReport, type ClusterRow, progress } from './cluster-report';

// SDK produce and consume throughput of the standalone broker and of the cluster, measured in the
// same run with the same client children as bench:broker (sdk-client.ts). Rounds alternate
// between the two setups, so a change of load on this shared machine falls on both alike.

type Acks = (typeof ACKS)[number];

const produceWorkload = (size: Size, acks: Acks) => `SDK produce ${size.label} ${acks.label}`;
const consumeWorkload = (size: Size) => `SDK consume ${size.label}`;

/** Topics of one setup and size: the warm-up topic and the topic of each round and acks. */
const warmupTopic = (size: Size) => `bench-${size.key}-warmup`;
const roundTopic = (size: Size, acks: Acks, round: number) => `bench-${size.key}-${acks.key}-r${round}`;
/** The consume rounds read what the acks=1 rounds wrote. */
export const consumedTopic = (size: Size, round: number) => roundTopic(size, ACKS[0]!, round);

async function produceRun(
  root: string,
  setup: BenchSetup,
  size: Size,
  acks: Acks,
  round: number,
): Promise<Measured> {
  const topic = roundTopic(size, acks, round);
  await createTopics(setup, [topic]);
  await prefault(root, size);
  progress(`${setup.name}: ${produceWorkload(size, acks)}, round ${round + 1}/${ROUND_COUNT}`);
  const run = await measureClient(setup.serverPids(), (onMark) =>
    runChild(
      'sdk-produce',
      {
        bootstrap: setup.bootstrap,
        topic,
        warmupTopic: warmupTopic(size),
        warmupCount: warmupCount(size),
        count: size.count,
        valueBytes: size.valueBytes,
        acks: acks.acks,
        recordsPerSend: RECORDS_PER_SEND,
        sendsInFlight: sendsInFlight(size),
      },
      { timeoutMs: CHILD_TIMEOUT_MS, onMark },
    ),
  );
  await verifyCount(setup, topic, size.count);
  return run;
}

function consumeRun(setup: BenchSetup, size: Size, round: number): Promise<Measured> {
  progress(`${setup.name}: ${consumeWorkload(size)}, round ${round + 1}/${ROUND_COUNT}`);
  return measureClient(setup.serverPids(), (onMark) =>
    runChild(
      'sdk-consume',
      {
        bootstrap: setup.bootstrap,
        topic: consumedTopic(size, round),
        warmupTopic: warmupTopic(size),
        warmupCount: warmupCount(size),
        partitionCount: PARTITION_COUNT,
        count: size.count,
      },
      { timeoutMs: CHILD_TIMEOUT_MS, onMark },
    ),
  );
}

/** Runs of each workload (produce per acks, consume) per setup, in the order rows are printed. */
class Runs {
  readonly #runs = new Map<string, Map<BenchSetup, Measured[]>>();

  add(workload: string, setup: BenchSetup, run: Measured): void {
    const bySetup = this.#runs.get(workload) ?? new Map<BenchSetup, Measured[]>();
    this.#runs.set(workload, bySetup);
    bySetup.set(setup, [...(bySetup.get(setup) ?? []), run]);
  }

  entries() {
    return this.#runs.entries();
  }
}

/**
 * For each size: rounds of produce (acks=1, then acks=all) and consume, on the standalone broker
 * and on the cluster in turn (the one going first alternates by round). Adds one row per setup
 * and workload with the median run; the cluster row is judged by the median over rounds of its
 * rate divided by the standalone rate of the same round.
 */
export async function measureThroughput(
  root: string,
  standalone: BenchSetup,
  cluster: BenchSetup,
  report: ClusterReport,
): Promise<void> {
  for (const size of SIZES) {
    const runs = new Runs();
    await report.attempt('both', `throughput ${size.label}`, async () => {
      for (const setup of [standalone, cluster]) await createTopics(setup, [warmupTopic(size)]);
      for (let round = 0; round < ROUND_COUNT; round++) {
        const order = round % 2 === 0 ? [standalone, cluster] : [cluster, standalone];
        for (const acks of ACKS) {
          for (const setup of order)
            runs.add(produceWorkload(size, acks), setup, await produceRun(root, setup, size, acks, round));
        }
        for (const setup of order)
          runs.add(consumeWorkload(size), setup, await consumeRun(setup, size, round));
      }
      return [];
    });
    for (const [workload, bySetup] of runs.entries()) {
      const standaloneRuns = bySetup.get(standalone) ?? [];
      const clusterRuns = bySetup.get(cluster) ?? [];
      const reference = medianRow(standalone, workload, standaloneRuns, report);
      const measured = medianRow(cluster, workload, clusterRuns, report);
      if (reference === undefined || measured === undefined) continue;
      report.rows.push(reference, measured);
      // The two runs of a round ran back to back, so their ratio is the least touched by the load
      // of other work on this machine, which moves both setups' rates from round to round.
      const ratios = clusterRuns.map(
        (run, round) => messagesPerSecond(run) / messagesPerSecond(standaloneRuns[round]!),
      );
      const ratio = medianBy(ratios, (value) => value)!;
      report.notes.push(
        `${workload}: ${cluster.name} ÷ standalone per round: ${ratios.map((value) => value.toFixed(2)).join(', ')}; ` +
          `median ${ratio.toFixed(2)} (the ratio judged).`,
      );
      report.setTarget(measured, `≥ ${THROUGHPUT_RATIO_TARGET.toFixed(2)} × standalone`, ratio, {
        kind: 'at-least',
        threshold: THROUGHPUT_RATIO_TARGET,
        reference: 'standalone',
        referenceValue: 1,
      });
    }
  }
}

function medianRow(
  setup: BenchSetup,
  workload: string,
  runs: Measured[],
  report: ClusterReport,
): ClusterRow | undefined {
  const run = medianBy(runs, messagesPerSecond);
  if (run === undefined) return undefined;
  if (runs.length > 1) {
    report.notes.push(
      `${setup.name} ${workload}: median of ${runs.length} runs; msgs/s of each: ` +
        runs.map((each) => formatCount(messagesPerSecond(each))).join(', '),
    );
  }
  return { setup: setup.name, measurement: workload, run };
}
