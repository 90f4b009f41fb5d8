import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/** One scrape of a Prometheus text endpoint (etcd's or a broker's `/metrics`). */
export async function scrapeMetrics(url: string): Promise<PrometheusFamily[]> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parsePrometheusTextFormat(await response.text());
}

/**
 * A counter's samples summed by the value of one label, over the samples whose other labels match
 * `where` (a label missing from a sample never matches).
 */
export function sumByLabel(
  families: readonly PrometheusFamily[],
  metric: string,
  byLabel: string,
  where: Readonly<Record<string, string>> = {},
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const sample of families.find((family) => family.name === metric)?.metrics ?? []) {
    const labels = sample.labels ?? {};
    if (Object.entries(where).some(([name, value]) => labels[name] !== value)) continue;
    const key = labels[byLabel] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + Number(sample.value ?? 0));
  }
  return sums;
}

/** `after - before` per key, keys that did not move left out. */
export function increase(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>) {
  const moved = new Map<string, number>();
  for (const [key, value] of after) {
    const delta = value - (before.get(key) ?? 0);
    if (delta !== 0) moved.set(key, delta);
  }
  return moved;
}
