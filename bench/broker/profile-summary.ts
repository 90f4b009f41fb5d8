import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Column, formatTable } from '../harness/table';
import { type CpuProfile, callerChains, type FunctionTime, summarizeProfiles } from './cpu-profile';

/**
 * Prints the functions that took the most time in one or more `.cpuprofile` files (several are
 * summed, e.g. the rounds of one row): the top by self time, then the top by total time.
 *
 *   npm run profile:summary -- <file.cpuprofile>... [--top N]   (from bench/; N defaults to 25)
 *
 * With `--callers <function name>` it prints instead where that function's self time came from: the
 * chains of its six nearest callers, largest first (e.g. which path calls a native copy).
 */

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, callers: { type: 'string' } },
});
const top = Number(values.top);
if (files.length === 0 || !(top > 0)) {
  process.stderr.write('usage: profile-summary <file.cpuprofile>... [--top N] [--callers <function name>]\n');
  process.exit(2);
}

/** A profile file, or the reason it is not one, named (a wrong path should not print a stack). */
async function readProfile(file: string): Promise<CpuProfile> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  } catch (error) {
    process.stderr.write(`profile-summary: ${file}: ${error instanceof Error ? error.message : error}\n`);
    process.exit(2);
  }
}

const profiles = await Promise.all(files.map(readProfile));
const summary = summarizeProfiles(profiles);
const totalMs = summary.totalUs / 1000;
const idleUs =
  summary.functions.find((entry) => entry.name === '(idle)' && entry.location === '')?.selfUs ?? 0;

/** Script URLs relative to the working directory, so repository paths stay short. */
function shortLocation(location: string): string {
  if (!location.startsWith('file://')) return location;
  const [url, line] = [
    location.slice(0, location.lastIndexOf(':')),
    location.slice(location.lastIndexOf(':')),
  ];
  return relative(process.cwd(), fileURLToPath(url)) + line;
}

const columns: Column[] = [
  { title: 'function' },
  { title: 'location' },
  { title: 'self ms', alignRight: true },
  { title: 'self %', alignRight: true },
  { title: 'total ms', alignRight: true },
  { title: 'total %', alignRight: true },
];
const percent = (us: number): string => `${((100 * us) / summary.totalUs).toFixed(1)}%`;
const cells = (entry: FunctionTime): string[] => [
  entry.name,
  shortLocation(entry.location),
  (entry.selfUs / 1000).toFixed(1),
  percent(entry.selfUs),
  (entry.totalUs / 1000).toFixed(1),
  percent(entry.totalUs),
];

if (values.callers !== undefined) {
  console.log(`Self time of ${values.callers} by caller chain (nearest caller first)`);
  for (const chain of callerChains(profiles, values.callers, 6).slice(0, top)) {
    const callers = chain.callers.map((caller) =>
      caller.replace(/file:\/\/\S+/, (url) => shortLocation(url)),
    );
    console.log(
      `${(chain.selfUs / 1000).toFixed(1).padStart(9)} ms  ${percent(chain.selfUs).padStart(6)}  ${callers.join(' < ')}`,
    );
  }
  process.exit(0);
}

console.log(
  `${files.length} profile(s), ${totalMs.toFixed(0)} ms sampled, ${percent(idleUs)} idle; ` +
    '% are of all sampled time.\n',
);
console.log(`Top ${top} by self time`);
const bySelf = [...summary.functions].sort((a, b) => b.selfUs - a.selfUs).slice(0, top);
console.log(formatTable(columns, bySelf.map(cells)));
console.log(`\nTop ${top} by total time`);
// (root) is on every stack and says nothing.
const byTotal = summary.functions
  .filter((entry) => entry.name !== '(root)')
  .sort((a, b) => b.totalUs - a.totalUs)
  .slice(0, top);
console.log(formatTable(columns, byTotal.map(cells)));
