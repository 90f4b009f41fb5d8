import { UsageError } from './usage-error';

/**
 * Turns repeated `--<flag> key=value` pairs into a record. A key given twice is refused rather than
 * letting the last one win, because it is almost always a copy-paste mistake.
 */
export function configRecord(flag: string, pairs: readonly [string, string][]): Record<string, string> {
  const configs: Record<string, string> = {};
  for (const [key, value] of pairs) {
    if (Object.hasOwn(configs, key)) throw new UsageError(`${flag}: "${key}" is given twice`);
    configs[key] = value;
  }
  return configs;
}
