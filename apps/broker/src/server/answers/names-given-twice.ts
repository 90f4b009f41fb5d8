/** Names that occur more than once in a request's list (Kafka refuses each occurrence). */
export function namesGivenTwice(names: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return twice;
}
