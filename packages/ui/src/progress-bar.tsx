type ProgressBarProps = {
  /** Names the bar for assistive technology, e.g. "Offset span covered". */
  label: string;
  /** Between 0 and 1. */
  fraction: number;
  /** Shown beside the bar and read out as the value, e.g. "42 %"; defaults to the rounded percent. */
  valueText?: string;
};

/**
 * A determinate progress bar. The width follows `fraction`; the percent is also written out, since
 * a bar alone says little to screen readers or in a screenshot.
 */
export function ProgressBar({ label, fraction, valueText }: ProgressBarProps) {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const percent = Math.floor(clamped * 100);
  const text = valueText ?? `${percent} %`;
  return (
    <div className="flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-1.5 w-40 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className="h-full rounded-full bg-sky-600 transition-[width] duration-200 dark:bg-sky-400"
          style={{ width: `${clamped * 100}%` }}
        />
      </div>
      <span className="text-xs text-zinc-600 tabular-nums dark:text-zinc-300">{text}</span>
    </div>
  );
}
