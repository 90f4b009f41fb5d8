/**
 * An inclusive range of API versions, written the way Kafka's message definitions write them:
 * "0+" (from 0 on), "1-3" (1 through 3), "2" (only 2) or "none".
 */
export interface VersionRange {
  readonly min: number;
  /** Inclusive; `Infinity` for an open range. */
  readonly max: number;
}

export const NO_VERSIONS: VersionRange = { min: 1, max: 0 };
export const ALL_VERSIONS: VersionRange = { min: 0, max: Number.POSITIVE_INFINITY };

const RANGE_PATTERN = /^(\d+)(\+|-(\d+))?$/;

/** Parses a version range string. A malformed one is a bug in a schema and fails loudly. */
export function parseVersionRange(text: string): VersionRange {
  if (text === 'none') return NO_VERSIONS;
  const match = RANGE_PATTERN.exec(text);
  if (!match) throw new Error(`malformed version range "${text}"`);
  const min = Number(match[1]);
  if (match[2] === '+') return { min, max: Number.POSITIVE_INFINITY };
  const max = match[3] === undefined ? min : Number(match[3]);
  if (max < min) throw new Error(`version range "${text}" ends before it starts`);
  return { min, max };
}

export function inRange(range: VersionRange, version: number): boolean {
  return version >= range.min && version <= range.max;
}
