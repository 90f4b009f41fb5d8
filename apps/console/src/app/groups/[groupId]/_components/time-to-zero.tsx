import { formatCount } from '@weir/ui';
import type { TimeToZeroView } from '../../../../server/api/schemas/history';
import { formatPerSecond } from '../../../_components/format-rate';
import { formatDuration } from '../../../_components/history/format-duration';

/** The group's time-to-zero estimate in words (#21 item 2), from the broker's sampled rates. */
export function timeToZeroSentence(estimate: TimeToZeroView): { headline: string; detail: string } {
  const rates =
    estimate.consumedPerSecond === null || estimate.producedPerSecond === null
      ? ''
      : `consuming ${formatPerSecond(estimate.consumedPerSecond)}, ${formatPerSecond(estimate.producedPerSecond)} produced, over the last ${formatDuration(estimate.basisMs / 1000)}`;
  switch (estimate.trend) {
    case 'caught-up':
      return { headline: 'Caught up', detail: 'No lag at the last sample.' };
    case 'catching-up':
      return {
        headline: `About ${formatDuration(estimate.secondsToZero ?? 0)} to zero`,
        detail: `${formatCount(estimate.totalLag ?? 0)} behind, ${rates}.`,
      };
    case 'not-catching-up':
      return {
        headline: 'Not catching up',
        detail: `${formatCount(estimate.totalLag ?? 0)} behind and ${rates}.`,
      };
    default:
      return {
        headline: 'No estimate yet',
        detail: 'The broker has not sampled this group’s lag and rates yet.',
      };
  }
}

/** The estimate as the group page shows it, above the lag chart. */
export function TimeToZero({ estimate }: { estimate: TimeToZeroView }) {
  const { headline, detail } = timeToZeroSentence(estimate);
  return (
    <p className="text-sm" data-testid="time-to-zero" data-trend={estimate.trend}>
      <span className="font-semibold">{headline}</span>{' '}
      <span className="text-zinc-600 dark:text-zinc-300">{detail}</span>
    </p>
  );
}
