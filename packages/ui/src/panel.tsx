import type { ReactNode } from 'react';

type PanelProps = {
  title: string;
  /** Right-aligned in the title row: a status badge, an as-of indicator, actions. */
  actions?: ReactNode;
  /** Set for tables that draw their own border and should reach the panel's edges. */
  flush?: boolean;
  children: ReactNode;
};

/** A titled card: the unit every console page is built from. It is a labelled `section` landmark. */
export function Panel({ title, actions, flush = false, children }: PanelProps) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-zinc-200 border-b px-4 py-2.5 dark:border-zinc-800">
        <h2 className="font-semibold text-sm">{title}</h2>
        {actions ? <div className="flex items-center gap-3">{actions}</div> : null}
      </div>
      <div className={flush ? 'p-2' : 'p-4'}>{children}</div>
    </section>
  );
}
