import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatCount, formatRate } from '../harness/table';
import {
  ACKS,
  CHILD_TIMEOUT_MS,
  LATENCY_RATE_PER_SECOND,
  LATENCY_SECONDS,
  LATENCY_VALUE_BYTES,
  MAX_SECONDS,
  PARTITION_COUNT,
  RECORDS_PER_SEND,
  ROUND_COUNT,
  SIZES,
  type Size,
  sendsInFlight,
  warmupCount,
} from './bench-config';
import { type BenchReport, cappedNote, type Measured, progress } from './bench-report';
import type { PhaseStats } from './broker-phase-probe';
import type { ChildTaskName, ChildTasks } from './child-tasks';
import { runKcat, writeKcatInput } from './kcat';
import { measureClient, prefault } from './measure-client';
import { processCpuMs } from './proc-stat';
import { runChild } from './run-child';
import { createTopics, startWeir, stopWeir, verifyCount, type WeirBroker } from './weir-service';

// Weir measured through each client: our SDK (produce rounds, consume rounds, latency at a fixed
// rate), kafkajs and kcat. Each section starts its own broker and removes it when done.

/** The child tasks that produce or consume a workload and report a ClientRun. */
type ClientTaskName = Extract<
  ChildTaskName,
  'sdk-produce' | 'sdk-consume' | 'kafkajs-produce' | 'kafkajs-consume'
>;

/**
 * A client child task measured against the broker's CPU and event-loop delay between the child's
 * start and end marks; `phaseName` names the phase's CPU profile when profiling is on.
 */
function measureChild<Name extends ClientTaskName>(
  weir: WeirBroker,
  name: Name,
  input: Parameters<ChildTasks[Name]>[0],
  phaseName: string,
): Promise<Measured> {
  return measureClient(
    weir.service.pid,
    (onMark) => runChild(name, input, { timeoutMs: CHILD_TIMEOUT_MS, onMark }),
    { service: weir.service, name: phaseName },
  );
}

/** What the SDK and kafkajs produce children share: the same records, sends and warm-up. */
function produceInput(
  weir: WeirBroker,
  topic: string,
  warmupTopic: string,
  size: Size,
  acks: (typeof ACKS)[number],
) {
  return {
    bootstrap: weir.bootstrap,
    topic,
    warmupTopic,
    warmupCount: warmupCount(size),
    count: size.count,
    valueBytes: size.valueBytes,
    acks: acks.acks,
    recordsPerSend: RECORDS_PER_SEND,
    sendsInFlight: sendsInFlight(size),
  };
}

export async function measureSdk(root: string, report: BenchReport): Promise<void> {
  const weir = await startWeir(root, 'weir-sdk');
  try {
    for (const size of SIZES) {
      const warmupTopic = `sdk-${size.key}-warmup`;
      await createTopics(weir, [warmupTopic]);
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await report.attempt('Weir · SDK', workload, async () => {
          const runs: Measured[] = [];
          for (let round = 0; round < ROUND_COUNT; round++) {
            const topic = `sdk-${size.key}-${acks.key}-r${round}`;
            await createTopics(weir, [topic]);
            await prefault(root, size);
            progress(`SDK ${workload}, round ${round + 1}/${ROUND_COUNT}`);
            const run = await measureChild(
              weir,
              'sdk-produce',
              produceInput(weir, topic, warmupTopic, size, acks),
              `sdk-produce-${size.key}-${acks.key}-r${round}`,
            );
            await verifyCount(weir, topic, size.count);
            runs.push(run);
          }
          return report.medianRow('Weir · SDK', workload, runs);
        });
      }
      const workload = `consume ${size.label}`;
      await report.attempt('Weir · SDK', workload, async () => {
        const runs: Measured[] = [];
        for (let round = 0; round < ROUND_COUNT; round++) {
          progress(`SDK ${workload}, round ${round + 1}/${ROUND_COUNT}`);
          runs.push(
            await measureChild(
              weir,
              'sdk-consume',
              {
                bootstrap: weir.bootstrap,
                topic: `sdk-${size.key}-acks1-r${round}`,
                warmupTopic,
                warmupCount: warmupCount(size) * 2,
                partitionCount: PARTITION_COUNT,
                count: size.count,
              },
              `sdk-consume-${size.key}-r${round}`,
            ),
          );
        }
        return report.medianRow('Weir · SDK', workload, runs);
      });
    }
    for (const acks of ACKS) {
      const workload = `latency at ${formatCount(LATENCY_RATE_PER_SECOND)} msgs/s, ${LATENCY_VALUE_BYTES} B, ${acks.label}, lingerMs=0`;
      await report.attempt('Weir · SDK', workload, async () => {
        const topic = `latency-${acks.key}`;
        await createTopics(weir, [topic]);
        progress(`SDK ${workload}`);
        let serverCpuMs: number | undefined;
        let serverSeconds: number | undefined;
        let startCpuMs = 0;
        let startMs = 0;
        let phaseStats: Promise<PhaseStats | undefined> = Promise.resolve(undefined);
        const latency = await runChild(
          'sdk-latency',
          {
            bootstrap: weir.bootstrap,
            topic,
            valueBytes: LATENCY_VALUE_BYTES,
            acks: acks.acks,
            ratePerSecond: LATENCY_RATE_PER_SECOND,
            warmupSeconds: 1,
            seconds: LATENCY_SECONDS,
          },
          {
            timeoutMs: CHILD_TIMEOUT_MS,
            onMark: (label) => {
              if (label === 'start') {
                startCpuMs = processCpuMs(weir.service.pid);
                startMs = performance.now();
                weir.service.phaseStart(`sdk-latency-${acks.key}`);
              } else {
                serverCpuMs = processCpuMs(weir.service.pid) - startCpuMs;
                serverSeconds = (performance.now() - startMs) / 1000;
                phaseStats = weir.service.phaseEnd();
              }
            },
          },
        );
        const run: Measured = {
          records: latency.sent,
          payloadBytes: latency.sent * LATENCY_VALUE_BYTES,
          seconds: latency.seconds,
          clientCpuMs: latency.clientCpuMs,
          serverCpuMs,
          serverSeconds,
          serverLoopDelayP99Ms: (await phaseStats)?.eventLoopDelayP99Ms,
        };
        report.notes.push(
          `Latency ${acks.label}: ${formatCount(latency.sent)} sends at ${formatRate(latency.achievedPerSecond)}/s ` +
            `achieved, max ${latency.maxMs.toFixed(2)} ms.`,
        );
        return { system: 'Weir · SDK', workload, run, latency };
      });
    }
  } finally {
    await stopWeir(root, 'weir-sdk', weir);
  }
}

export async function measureKafkajs(root: string, report: BenchReport): Promise<void> {
  const weir = await startWeir(root, 'weir-kafkajs');
  try {
    for (const size of SIZES) {
      const warmupTopic = `kafkajs-${size.key}-warmup`;
      await createTopics(weir, [warmupTopic]);
      const produced = new Map<string, number>();
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await report.attempt('Weir · kafkajs', workload, async () => {
          const topic = `kafkajs-${size.key}-${acks.key}`;
          await createTopics(weir, [topic]);
          await prefault(root, size);
          progress(`kafkajs ${workload}`);
          const run = await measureChild(
            weir,
            'kafkajs-produce',
            {
              ...produceInput(weir, topic, warmupTopic, size, acks),
              maxSeconds: MAX_SECONDS,
            },
            `kafkajs-produce-${size.key}-${acks.key}`,
          );
          await verifyCount(weir, topic, run.records);
          produced.set(topic, run.records);
          return { system: 'Weir · kafkajs', workload, run, note: cappedNote(run, size) };
        });
      }
      const workload = `consume ${size.label}`;
      const topic = `kafkajs-${size.key}-acks1`;
      const count = produced.get(topic);
      if (count === undefined) continue;
      await report.attempt('Weir · kafkajs', workload, async () => {
        progress(`kafkajs ${workload}`);
        const run = await measureChild(
          weir,
          'kafkajs-consume',
          {
            bootstrap: weir.bootstrap,
            topic,
            count,
            groupId: `bench-${size.key}`,
          },
          `kafkajs-consume-${size.key}`,
        );
        return { system: 'Weir · kafkajs', workload, run };
      });
    }
  } finally {
    await stopWeir(root, 'weir-kafkajs', weir);
  }
}

export async function measureKcat(root: string, report: BenchReport): Promise<void> {
  const weir = await startWeir(root, 'weir-kcat');
  try {
    for (const size of SIZES) {
      const input = join(root, `kcat-${size.key}.txt`);
      await writeKcatInput(input, size.count, size.valueBytes);
      for (const acks of ACKS) {
        const workload = `produce ${size.label} ${acks.label}`;
        await report.attempt('Weir · kcat', workload, async () => {
          const topic = `kcat-${size.key}-${acks.key}`;
          await createTopics(weir, [topic]);
          await prefault(root, size);
          progress(`kcat ${workload}`);
          const run = await measureKcatRun(weir, size, `kcat-produce-${size.key}-${acks.key}`, [
            '-P',
            '-b',
            weir.bootstrap,
            '-t',
            topic,
            '-X',
            `acks=${acks.acks === -1 ? 'all' : '1'}`,
            '-l',
            input,
          ]);
          await verifyCount(weir, topic, size.count);
          return { system: 'Weir · kcat', workload, run };
        });
      }
      await rm(input, { force: true });
      const workload = `consume ${size.label}`;
      await report.attempt('Weir · kcat', workload, async () => {
        progress(`kcat ${workload}`);
        const run = await measureKcatRun(weir, size, `kcat-consume-${size.key}`, [
          '-C',
          '-b',
          weir.bootstrap,
          '-t',
          `kcat-${size.key}-acks1`,
          '-o',
          'beginning',
          '-e',
          '-q',
          '-c',
          String(size.count),
        ]);
        return { system: 'Weir · kcat', workload, run };
      });
    }
  } finally {
    await stopWeir(root, 'weir-kcat', weir);
  }
}

async function measureKcatRun(
  weir: WeirBroker,
  size: Size,
  phaseName: string,
  args: string[],
): Promise<Measured> {
  let startCpuMs = 0;
  let serverCpuMs = 0;
  let phaseStats: Promise<PhaseStats | undefined> = Promise.resolve(undefined);
  const run = await runKcat(args, CHILD_TIMEOUT_MS, {
    onStart: () => {
      startCpuMs = processCpuMs(weir.service.pid);
      weir.service.phaseStart(phaseName);
    },
    onEnd: () => {
      serverCpuMs = processCpuMs(weir.service.pid) - startCpuMs;
      phaseStats = weir.service.phaseEnd();
    },
  });
  return {
    records: size.count,
    payloadBytes: size.count * size.valueBytes,
    seconds: run.seconds,
    clientCpuMs: run.clientCpuMs,
    serverCpuMs,
    serverSeconds: run.seconds,
    serverLoopDelayP99Ms: (await phaseStats)?.eventLoopDelayP99Ms,
  };
}
