type MetricTileTone = 'neutral' | 'warning' | 'error';

type MetricTileProps = {
  label: string;
  /** `null` renders an em dash: the value is unknown, which is different from zero. */
  value: string | null;
  /** Colours the number when it needs attention (e.g. offline partitions above zero). */
  tone?: MetricTileTone;
};

const toneClassNames: Record<MetricTileTone, string> = {
  neutral: 'text-zinc-900 dark:text-zinc-100',
  warning: 'text-amber-700 dark:text-amber-400',
  error: 'text-rose-700 dark:text-rose-400',
};

/**
 * One headline number (brokers, topics, lag), as a `dt`/`dd` pair: place tiles inside a `<dl>`.
 * Digits are tabular so that numbers in neighbouring tiles line up.
 */
export function MetricTile({ label, value, tone = 'neutral' }: MetricTileProps) {
  return (
    <div className="rounded-lg border border-zinc-200 px-4 py-3 dark:border-zinc-800">
      <dt className="text-xs text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className={`mt-1 font-semibold text-2xl tabular-nums ${toneClassNames[tone]}`}>
        {value ?? <span className="text-zinc-300 dark:text-zinc-600">—</span>}
      </dd>
    </div>
  );
}
