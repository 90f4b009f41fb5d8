/**
 * The life of a {@link GroupConsumer}: `new` until `subscribe`, then `rebalancing` (joining, syncing)
 * and `running` (assigned, fetching, heartbeating) in turn, until `close` moves it to `closing`
 * and, once LeaveGroup is sent, `closed`. `closing` is reachable from every state but `closed`, so
 * a close always wins over a rebalance in progress.
 */
export type GroupConsumerState = 'new' | 'running' | 'rebalancing' | 'closing' | 'closed';

export const GROUP_CONSUMER_TRANSITIONS: Readonly<Record<GroupConsumerState, readonly GroupConsumerState[]>> =
  {
    new: ['rebalancing', 'closing'],
    rebalancing: ['running', 'closing'],
    running: ['rebalancing', 'closing'],
    closing: ['closed'],
    closed: [],
  };

/** Whether the table allows `from` → `to`. */
export function canTransition(from: GroupConsumerState, to: GroupConsumerState): boolean {
  return GROUP_CONSUMER_TRANSITIONS[from].includes(to);
}
