import { MB } from '../log/units';
import { SIZES } from './bench-config';
import { type BenchReport, megabytesPerSecond, messagesPerSecond } from './bench-report';

/**
 * Judges the SDK rows against the targets, each a ratio to something measured in the same
 * run (a baseline, the floor, the acks=1 row) or, for latency, a fixed bound. A row whose
 * reference was not measured shows the target as n/a.
 */
export function attachTargets(report: BenchReport): void {
  const small = SIZES[0]!;
  const large = SIZES[1]!;
  const sdk = 'Weir · SDK';
  const bestPublish = report.baselines.publish.get(small.key);
  const produceSmall = report.findRow(sdk, `produce ${small.label} acks=1`);
  report.setTarget(
    produceSmall,
    '≥ 5 × best baseline publish',
    produceSmall?.run && messagesPerSecond(produceSmall.run),
    bestPublish && {
      kind: 'at-least',
      threshold: 5 * bestPublish.msgsPerSecond,
      reference: `${bestPublish.system} publish`,
      referenceValue: bestPublish.msgsPerSecond,
    },
  );
  const produceLarge = report.findRow(sdk, `produce ${large.label} acks=1`);
  report.setTarget(
    produceLarge,
    '≥ 0.60 × floor MB/s',
    produceLarge?.run && megabytesPerSecond(produceLarge.run) * MB,
    report.floorBytesPerSecond === undefined
      ? undefined
      : {
          kind: 'at-least',
          threshold: 0.6 * report.floorBytesPerSecond,
          reference: 'floor',
          referenceValue: report.floorBytesPerSecond,
        },
  );
  for (const size of SIZES) {
    const flushed = report.findRow(sdk, `produce ${size.label} acks=1`);
    const durable = report.findRow(sdk, `produce ${size.label} acks=all`);
    report.setTarget(
      durable,
      '≥ 0.50 × acks=1',
      durable?.run && messagesPerSecond(durable.run),
      flushed?.run && {
        kind: 'at-least',
        threshold: 0.5 * messagesPerSecond(flushed.run),
        reference: 'acks=1',
        referenceValue: messagesPerSecond(flushed.run),
      },
    );
    const consume = report.findRow(sdk, `consume ${size.label}`);
    const bestConsume = report.baselines.consume.get(size.key);
    report.setTarget(
      consume,
      '≥ 3 × best baseline consume',
      consume?.run && messagesPerSecond(consume.run),
      bestConsume && {
        kind: 'at-least',
        threshold: 3 * bestConsume.msgsPerSecond,
        reference: `${bestConsume.system} consume`,
        referenceValue: bestConsume.msgsPerSecond,
      },
    );
  }
  const latency = report.rows.find(
    (row) => row.system === sdk && row.latency && row.workload.includes('acks=1'),
  );
  report.setTarget(latency, 'p99 ≤ 1 ms', latency?.latency?.p99Ms, {
    kind: 'at-most',
    threshold: 1,
    reference: 'target',
    referenceValue: 1,
  });
}
