import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat (almost always 100). */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU time (user + system, in ms) a live process has used so far, from `/proc/<pid>/stat` (Linux).
 * It works for any process, Node or not, so the broker, NATS and Redis are measured alike.
 */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing ')' do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, so 11 and 12 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** This process's CPU time (user + system) in ms. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
