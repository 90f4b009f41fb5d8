import { InvalidArgumentError } from 'commander';

/** Where `consume --from` starts each partition. */
export type StartPosition =
  | { readonly kind: 'beginning' }
  | { readonly kind: 'end' }
  | { readonly kind: 'offset'; readonly offset: bigint }
  | { readonly kind: 'timestamp'; readonly timestampMs: number };

/** Parses `beginning`, `end`, an offset, or `@<ms since the epoch>` (commander argument parser). */
export function parseStartPosition(text: string): StartPosition {
  if (text === 'beginning' || text === 'end') return { kind: text };
  if (/^\d+$/.test(text)) return { kind: 'offset', offset: BigInt(text) };
  if (/^@\d+$/.test(text)) {
    const timestampMs = Number(text.slice(1));
    if (Number.isSafeInteger(timestampMs)) return { kind: 'timestamp', timestampMs };
  }
  throw new InvalidArgumentError('Expected beginning, end, an offset, or @<timestamp in ms>.');
}
