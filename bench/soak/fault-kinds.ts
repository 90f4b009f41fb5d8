/** The faults the cluster soak mixes (issue 17, "A longer run"); soak-faults.ts injects each. */
export const FAULT_KINDS = [
  'kill-leader',
  'kill-follower',
  'kill-controller',
  'pause-leader',
  'isolate-leader-from-brokers',
  'isolate-leader-from-etcd',
  'graceful-restart',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
