import { AppShell, ThemeScript } from '@weir/ui';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ConsoleHeader } from './_components/console-header';
import { ConsoleNavigation } from './_components/console-navigation';
import './globals.css';

export const metadata: Metadata = {
  title: 'Weir console',
  description: 'Topics, consumer groups, brokers, transactions and ACLs of a Weir cluster.',
};

// `suppressHydrationWarning` is needed because the theme script adds the `dark` class to <html>
// before React hydrates; it applies to this element's attributes only, not to its children.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript />
      </head>
      <body className="antialiased">
        <AppShell header={<ConsoleHeader />} navigation={<ConsoleNavigation />}>
          {children}
        </AppShell>
      </body>
    </html>
  );
}
