import type { ReactNode } from 'react';

type AppHeaderProps = {
  /** The product name, shown next to its mark. */
  title: string;
  mark: ReactNode;
  /** Controls on the right: connection status, theme toggle, later the user menu. */
  actions: ReactNode;
};

/** The top bar. It is a `banner` landmark so screen readers and tests can find it by role. */
export function AppHeader({ title, mark, actions }: AppHeaderProps) {
  return (
    <header className="sticky top-0 z-10 border-zinc-200 border-b bg-white/85 backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/85">
      <div className="mx-auto flex h-14 w-full max-w-screen-2xl items-center justify-between gap-4 px-4">
        <div className="flex items-center gap-2.5">
          {mark}
          <span className="font-semibold text-base tracking-tight">{title}</span>
          <span className="hidden rounded border border-zinc-200 px-1.5 py-0.5 font-medium text-[11px] text-zinc-500 uppercase tracking-wider sm:inline dark:border-zinc-700 dark:text-zinc-400">
            Console
          </span>
        </div>
        <div className="flex items-center gap-3">{actions}</div>
      </div>
    </header>
  );
}
