import type { ReactNode } from 'react';

export type StatusTone = 'neutral' | 'ok' | 'warning' | 'error';

/** Each tone pairs a dot with tinted text; colour is never the only signal, the label says it too. */
const toneClassNames: Record<StatusTone, { badge: string; dot: string }> = {
  neutral: {
    badge: 'bg-zinc-100 text-zinc-700 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700',
    dot: 'bg-zinc-400 dark:bg-zinc-500',
  },
  ok: {
    badge:
      'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30',
    dot: 'bg-emerald-500',
  },
  warning: {
    badge:
      'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
    dot: 'bg-amber-500',
  },
  error: {
    badge:
      'bg-rose-50 text-rose-800 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30',
    dot: 'bg-rose-500',
  },
};

/** A small pill that states a status in words, with a coloured dot as a quick visual cue. */
export function StatusBadge({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  const classNames = toneClassNames[tone];
  return (
    <span
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 font-medium text-xs ring-1 ring-inset ${classNames.badge}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${classNames.dot}`} />
      {children}
    </span>
  );
}
