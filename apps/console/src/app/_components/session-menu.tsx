'use client';

import { Button, showBidiControls } from '@weir/ui';
import { csrfHeaders } from '../../trpc/csrf';

/** The logged-in user and a logout button (login mode only). */
export function SessionMenu({ username }: { username: string }) {
  async function logout() {
    await fetch('/api/session', { method: 'DELETE', headers: csrfHeaders() }).catch(() => undefined);
    window.location.assign('/login');
  }
  return (
    <span className="flex items-center gap-2 text-sm">
      <span data-testid="session-user">{showBidiControls(username)}</span>
      <Button size="sm" onClick={() => void logout()}>
        Log out
      </Button>
    </span>
  );
}
