/** The middle item by `key` (the lower middle for an even count); undefined when empty. */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T | undefined {
  const sorted = [...items].sort((left, right) => key(left) - key(right));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
