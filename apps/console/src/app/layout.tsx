import { AppShell, ThemeScript } from '@weir/ui';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ConsoleHeader } from './_components/console-header';
import { ConsoleNavigation } from './_components/console-navigation';
import { Providers } from './_components/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Weir console', template: '%s · Weir console' },
  description: 'Topics, messages, consumer groups and brokers of a Weir cluster.',
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
        <Providers>
          <AppShell header={<ConsoleHeader />} navigation={<ConsoleNavigation />}>
            {children}
          </AppShell>
        </Providers>
      </body>
    </html>
  );
}
