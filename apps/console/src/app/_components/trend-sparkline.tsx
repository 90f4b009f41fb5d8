import { Sparkline } from '@weir/ui';

type TrendSparklineProps = {
  /** The series, oldest first; undefined while it is being read. */
  values: readonly (number | null)[] | undefined;
  /** What it is, e.g. "Lag over the last hour". */
  what: string;
  format: (value: number) => string;
};

/** A list row's sparkline, labelled with what it shows and its newest and largest values. */
export function TrendSparkline({ values, what, format }: TrendSparklineProps) {
  const sampled = (values ?? []).filter((value): value is number => value !== null);
  const newest = sampled.at(-1);
  const label =
    newest === undefined
      ? `${what}: no samples yet`
      : `${what}: now ${format(newest)}, at most ${format(Math.max(...sampled))}`;
  return <Sparkline values={values ?? []} label={label} />;
}
