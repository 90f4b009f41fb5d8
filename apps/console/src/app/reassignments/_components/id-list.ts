/**
 * Reads a list of ids typed into a text field, e.g. "2,3,4" or "0-3, 7": whole numbers separated
 * by commas or spaces, with ascending ranges; the order typed is kept (the first target replica is
 * the preferred leader), so nothing is sorted. Answers the ids, or what is wrong in words.
 */
export function parseIdList(text: string): { ids: number[] } | { problem: string } {
  const parts = text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) return { problem: 'type at least one number' };
  const ids: number[] = [];
  for (const part of parts) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range !== null) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to < from) return { problem: `the range ${part} runs backwards` };
      if (to - from > 10_000) return { problem: `the range ${part} is too long` };
      for (let id = from; id <= to; id += 1) ids.push(id);
    } else if (/^\d+$/.test(part)) ids.push(Number(part));
    else return { problem: `"${part}" is not a number` };
  }
  return { ids };
}
