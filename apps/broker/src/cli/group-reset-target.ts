import type { OffsetResetTarget } from '@weir/protocol';
import { InvalidArgumentError } from 'commander';

/** Parses `reset-offsets --to`: earliest, latest, an offset, or `@<ms since the epoch>` (commander parser). */
export function parseResetTarget(text: string): OffsetResetTarget {
  if (text === 'earliest' || text === 'latest') return text;
  if (/^\d+$/.test(text)) return { offset: BigInt(text) };
  if (/^@\d+$/.test(text)) {
    const timestampMs = Number(text.slice(1));
    if (Number.isSafeInteger(timestampMs)) return { timestampMs };
  }
  throw new InvalidArgumentError('Expected earliest, latest, an offset, or @<timestamp in ms>.');
}

/** Parses `reset-offsets --shift-by`: a whole number, negative to go back. */
export function parseShiftBy(text: string): OffsetResetTarget {
  if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError('Expected a whole number (negative to go back).');
  return { shiftBy: BigInt(text) };
}
