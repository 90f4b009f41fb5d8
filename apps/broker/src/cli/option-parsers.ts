import { InvalidArgumentError } from 'commander';

/**
 * Argument parsers for commander options. They throw InvalidArgumentError, which commander reports
 * as `error: option '--flag <value>' argument 'x' is invalid. <reason>` with exit status 2, so
 * every bad value names its flag.
 */

/** A whole number ≥ `min`, as a number. */
export function integerAtLeast(min: number): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) {
      throw new InvalidArgumentError(`Expected a whole number ≥ ${min}.`);
    }
    return value;
  };
}

/** Collects repeated `key=value` flags in order; the value may contain `=`. */
export function collectKeyValue(text: string, previous: readonly [string, string][]): [string, string][] {
  const split = text.indexOf('=');
  if (split <= 0) throw new InvalidArgumentError('Expected key=value.');
  return [...previous, [text.slice(0, split), text.slice(split + 1)]];
}

/** Collects a repeated flag's values in order. */
export function collectText(text: string, previous: readonly string[]): string[] {
  if (text === '') throw new InvalidArgumentError('Expected a non-empty value.');
  return [...previous, text];
}
