import { formatBytes, formatCount } from './format-number';

/** A humanised size whose hover title gives the exact number of bytes. */
export function ByteSize({ bytes }: { bytes: string | number | bigint }) {
  return (
    <span title={`${formatCount(bytes)} bytes`} className="tabular-nums">
      {formatBytes(bytes)}
    </span>
  );
}
