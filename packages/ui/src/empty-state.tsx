import type { ReactNode } from 'react';

/** What to show when a list is empty: say why, and offer the next step. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
      <p className="font-medium text-sm text-zinc-700 dark:text-zinc-200">{title}</p>
      {children ? <div className="text-sm text-zinc-500 dark:text-zinc-400">{children}</div> : null}
    </div>
  );
}
