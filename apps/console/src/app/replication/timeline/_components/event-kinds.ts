import type { ClusterEventKindName } from '../../../../server/api/schemas/replication-events';

/** Each kind's name in the chart's legend and the list, and its marker's colour and shape. */
export const EVENT_KIND_STYLES: Readonly<
  Record<ClusterEventKindName, { label: string; colour: string; symbol: string }>
> = {
  'leader-change': { label: 'Leader change', colour: '#2563eb', symbol: 'diamond' },
  'partition-offline': { label: 'Partition offline', colour: '#dc2626', symbol: 'triangle' },
  'isr-shrink': { label: 'ISR shrink', colour: '#d97706', symbol: 'circle' },
  'isr-expand': { label: 'ISR expand', colour: '#16a34a', symbol: 'circle' },
  'reassignment-started': { label: 'Reassignment started', colour: '#7c3aed', symbol: 'rect' },
  'reassignment-completed': { label: 'Reassignment completed', colour: '#6d28d9', symbol: 'rect' },
  'reassignment-cancelled': { label: 'Reassignment cancelled', colour: '#a21caf', symbol: 'rect' },
  'broker-session-started': { label: 'Broker session started', colour: '#0d9488', symbol: 'pin' },
  'broker-session-ended': { label: 'Broker session ended', colour: '#71717a', symbol: 'pin' },
};

/** The kinds filter's choices: groups of kinds that are read together, as the URL holds them. */
export const KIND_CHOICES: readonly {
  value: string;
  label: string;
  kinds: readonly ClusterEventKindName[];
}[] = [
  { value: 'isr', label: 'ISR changes', kinds: ['isr-shrink', 'isr-expand'] },
  { value: 'leaders', label: 'Leader changes and offline', kinds: ['leader-change', 'partition-offline'] },
  {
    value: 'reassignments',
    label: 'Reassignments',
    kinds: ['reassignment-started', 'reassignment-completed', 'reassignment-cancelled'],
  },
  { value: 'sessions', label: 'Broker sessions', kinds: ['broker-session-started', 'broker-session-ended'] },
];
