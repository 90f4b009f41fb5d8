import { readFileSync } from 'node:fs';

/** A process's resident set size now, in bytes, from `/proc/<pid>/status` (Linux). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kib) * 1024;
}

/**
 * Samples a process's RSS every `intervalMs` until stopped and keeps the largest value: the peak
 * of one row (VmHWM would be the peak since the process started, across rows).
 */
export function sampleResidentPeak(pid: number, intervalMs = 50): { stop(): number } {
  let peakBytes = residentBytes(pid);
  const timer = setInterval(() => {
    peakBytes = Math.max(peakBytes, residentBytes(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peakBytes, residentBytes(pid));
    },
  };
}
