import { formatCount } from './format-number';

/** A whole number with thousands separators, in tabular digits. */
export function Count({ value }: { value: string | number | bigint }) {
  return <span className="tabular-nums">{formatCount(value)}</span>;
}
