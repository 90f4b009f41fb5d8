import { AppShell, ThemeScript } from '@weir/ui';
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { currentViewer } from '../server/auth/viewer';
import { ConsoleHeader } from './_components/console-header';
import { ConsoleNavigation } from './_components/console-navigation';
import { OpenModeNotice } from './_components/open-mode-notice';
import { Providers } from './_components/providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Weir console', template: '%s · Weir console' },
  description: 'Topics, messages, consumer groups and brokers of a Weir cluster.',
};

// `suppressHydrationWarning` is needed because the theme script adds the `dark` class to <html>
// before React hydrates; it applies to this element's attributes only, not to its children.
// In login mode a page without a live session goes to /login, which renders without the shell.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  const loggedOut = viewer.mode === 'login' && viewer.username === null;
  const requestHeaders = await headers();
  const path = requestHeaders.get('x-weir-path');
  // The proxy's script nonce (src/proxy.ts): the page's policy runs no inline script without it.
  const nonce = requestHeaders.get('x-nonce') ?? undefined;
  if (loggedOut && path !== null && path !== '/login') redirect('/login');
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <ThemeScript nonce={nonce} />
      </head>
      <body className="antialiased">
        <Providers>
          {loggedOut ? (
            <main>{children}</main>
          ) : (
            <AppShell
              header={<ConsoleHeader username={viewer.username} />}
              navigation={<ConsoleNavigation />}
              notice={viewer.mode === 'none' ? <OpenModeNotice /> : null}
            >
              {children}
            </AppShell>
          )}
        </Providers>
      </body>
    </html>
  );
}
