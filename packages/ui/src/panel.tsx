import type { ReactNode } from 'react';

type PanelProps = {
  title: string;
  /** Right-aligned in the title row, typically a `StatusBadge`. */
  status?: ReactNode;
  /**
   * When the data was read from the broker, already formatted. Every panel shows it so that
   * nobody mistakes old numbers for live ones; `null` means nothing has been read yet.
   */
  readAt: string | null;
  children: ReactNode;
};

/** A titled card: the unit every console page is built from. It is a labelled `section` landmark. */
export function Panel({ title, status, readAt, children }: PanelProps) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center justify-between gap-4 border-zinc-200 border-b px-5 py-3.5 dark:border-zinc-800">
        <h2 className="font-semibold text-sm">{title}</h2>
        {status}
      </div>
      <div className="px-5 py-5">{children}</div>
      <div className="border-zinc-100 border-t px-5 py-2.5 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
        Read at: {readAt ?? 'never'}
      </div>
    </section>
  );
}
