import { formatRate } from '../harness/table';

/**
 * A goal from the issue: the measured value must reach, or stay below, `threshold`. The table shows
 * the measured value as a ratio of `referenceValue` (the floor, or the target itself), in the same
 * unit as the threshold.
 */
export interface Target {
  /** How the goal reads in the table, e.g. "≥ 0.80 × floor". */
  label: string;
  threshold: number;
  kind: 'at-least' | 'below';
  /** Name of what the ratio divides by, e.g. "floor" or "target". */
  reference: string;
  referenceValue: number;
}

export interface Verdict {
  ratio: string;
  met: boolean;
}

export function judge(measured: number, target: Target): Verdict {
  const ratio = measured / target.referenceValue;
  const met = target.kind === 'at-least' ? measured >= target.threshold : measured < target.threshold;
  const shown = ratio >= 10 ? formatRate(ratio) : ratio.toFixed(2);
  return { ratio: `${shown} × ${target.reference}`, met };
}

/** A target stated as a fixed limit, so the ratio is measured / limit. */
export function limitTarget(label: string, kind: Target['kind'], threshold: number): Target {
  return { label, threshold, kind, reference: 'target', referenceValue: threshold };
}

/** A target stated as a share of the floor's throughput. */
export function floorShareTarget(share: number, floorBytesPerSecond: number): Target {
  return {
    label: `≥ ${share.toFixed(2)} × floor`,
    threshold: share * floorBytesPerSecond,
    kind: 'at-least',
    reference: 'floor',
    referenceValue: floorBytesPerSecond,
  };
}
