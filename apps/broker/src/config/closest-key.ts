/**
 * Suggests the known key a mistyped one was probably meant to be. Case, `_` and `-` are ignored
 * first, so `data_dir` finds `dataDir`; then a small edit distance catches typos.
 */
export function closestKey(wanted: string, known: readonly string[]): string | undefined {
  const target = normalize(wanted);
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(target.length / 5)) + 1;
  for (const candidate of known) {
    const distance = editDistance(target, normalize(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function normalize(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance with one rolling row; keys are short, so this is cheap. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
