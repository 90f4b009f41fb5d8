import type { ReactNode } from 'react';
import { classNames } from './class-names';

export type BadgeTone = 'neutral' | 'accent' | 'warning' | 'danger' | 'success';

const toneClassNames: Record<BadgeTone, string> = {
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-300 dark:ring-zinc-700',
  accent:
    'bg-teal-50 text-teal-800 ring-teal-200 dark:bg-teal-500/10 dark:text-teal-300 dark:ring-teal-500/30',
  warning:
    'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-300 dark:ring-amber-500/30',
  danger:
    'bg-rose-50 text-rose-800 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30',
  success:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30',
};

type BadgeProps = { tone?: BadgeTone; title?: string; className?: string; children: ReactNode };

/** A compact, square-ish label for table cells: states, flags, group names with their lag. */
export function Badge({ tone = 'neutral', title, className, children }: BadgeProps) {
  return (
    <span
      title={title}
      className={classNames(
        'inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-px font-medium text-[11px] ring-1 ring-inset',
        toneClassNames[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
