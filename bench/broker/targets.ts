import { formatRate } from '../harness/table';

/**
 * A goal from the issue, as a ratio in the same run: the measured value must reach (`at-least`)
 * or not exceed (`at-most`) `threshold`; the table shows it as a multiple of `referenceValue`.
 */
export interface Target {
  kind: 'at-least' | 'at-most';
  threshold: number;
  /** What the ratio divides by, e.g. "floor" or "Redis Streams publish". */
  reference: string;
  referenceValue: number;
}

export interface Verdict {
  ratio: string;
  met: boolean;
}

export function judge(measured: number, target: Target): Verdict {
  const ratio = measured / target.referenceValue;
  const met = target.kind === 'at-least' ? measured >= target.threshold : measured <= target.threshold;
  const shown = ratio >= 10 ? formatRate(ratio) : ratio.toFixed(2);
  return { ratio: `${shown} × ${target.reference}`, met };
}
