type SparklineProps = {
  /** One value per bucket, oldest first; null where nothing was sampled (the line breaks there). */
  values: readonly (number | null)[];
  /** What the line shows, for assistive technology and tests, e.g. "Lag over the last hour: 0 to 2,000". */
  label: string;
  widthPx?: number;
  heightPx?: number;
};

/** The path of the sampled runs, each a polyline, scaled from 0 to the largest value. */
function sparklinePath(values: readonly (number | null)[], widthPx: number, heightPx: number): string {
  const largest = Math.max(0, ...values.filter((value): value is number => value !== null));
  const step = values.length > 1 ? widthPx / (values.length - 1) : 0;
  const y = (value: number) =>
    largest === 0 ? heightPx - 1 : heightPx - 1 - (value / largest) * (heightPx - 2);
  let path = '';
  let drawing = false;
  values.forEach((value, index) => {
    if (value === null) {
      drawing = false;
      return;
    }
    const x = values.length > 1 ? index * step : widthPx / 2;
    path += `${drawing ? 'L' : 'M'}${x.toFixed(1)} ${y(value).toFixed(1)}`;
    drawing = true;
  });
  return path;
}

/**
 * A small inline line chart for a list row: one SVG path, no library, so a page of rows renders in
 * a few milliseconds. A lone sample is a dot. Nothing sampled leaves an empty box of the same size,
 * so the column does not jump.
 */
export function Sparkline({ values, label, widthPx = 96, heightPx = 24 }: SparklineProps) {
  const path = sparklinePath(values, widthPx, heightPx);
  const samples = values.filter((value) => value !== null).length;
  return (
    <svg
      role="img"
      aria-label={label}
      data-samples={samples}
      width={widthPx}
      height={heightPx}
      viewBox={`0 0 ${widthPx} ${heightPx}`}
      className="inline-block overflow-visible align-middle text-sky-700 dark:text-sky-300"
    >
      {path === '' ? null : (
        <path
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth={samples === 1 ? 3 : 1.5}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      )}
    </svg>
  );
}
