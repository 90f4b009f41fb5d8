import type { ElectionReason } from '../cluster/leader-election';

/**
 * Why a partition's assignment changed, as its writer knows it: the controller's election reasons,
 * a broker's controlled shutdown or failed log, a leader's ISR change, an operator's preferred
 * election or reassignment. The store records it with the change for the replication timeline
 * (docs/architecture.md §6), so the "why" never has to be guessed from a diff afterwards.
 */
export type AssignmentChangeCause =
  | ElectionReason
  | 'controlled-shutdown'
  | 'log-offline'
  | 'follower-lagging'
  | 'follower-caught-up'
  | 'preferred-election'
  | 'auto-leader-rebalance'
  | 'reassignment'
  | 'reassignment-cancelled';
