import type { ReactNode } from 'react';

type AppShellProps = {
  header: ReactNode;
  navigation: ReactNode;
  /** A full-width notice under the header on every page (a warning about how the console runs). */
  notice?: ReactNode;
  children: ReactNode;
};

/**
 * The console's frame: a full-width header, a navigation column and the main area. Pages render
 * only into `children`, so every section shares the same chrome and keyboard order
 * (header, navigation, content).
 */
export function AppShell({ header, navigation, notice, children }: AppShellProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      {header}
      {notice}
      <div className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col md:flex-row">
        <aside className="border-zinc-200 border-b px-3 py-4 md:w-60 md:shrink-0 md:border-r md:border-b-0 md:py-6 dark:border-zinc-800">
          {navigation}
        </aside>
        <main className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">{children}</main>
      </div>
    </div>
  );
}
