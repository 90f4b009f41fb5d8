import { CopyButton } from '@weir/ui';
import type { ReactNode } from 'react';

/**
 * A password the console shows exactly once (it never stores passwords), with a copy button, after
 * `children`: what the password is for. Tests read the password by its test id.
 */
export function OneTimePassword({ password, children }: { password: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p>{children} Copy it now: it is shown only once.</p>
      <p className="flex items-center gap-2">
        <code
          className="break-all rounded bg-zinc-100 px-2 py-1 font-mono dark:bg-zinc-800"
          data-testid="generated-password"
        >
          {password}
        </code>
        <CopyButton text={() => password} label="Copy password" />
      </p>
    </div>
  );
}
