/**
 * How long one throughput scenario runs: it stops at whichever bound comes first, after an
 * untimed warm-up that lets the JIT settle and the file system allocate the first extents.
 */
export interface Budget {
  warmupMs: number;
  durationMs: number;
  /** Bytes written in the timed phase at most; bounds disk use on fast disks. */
  maxBytes: number;
}
