import { CopyButton } from '@weir/ui';

/**
 * A password the console shows exactly once (it never stores passwords), with a copy button.
 * Tests read it by its test id.
 */
export function OneTimePassword({ password }: { password: string }) {
  return (
    <p className="flex items-center gap-2">
      <code
        className="break-all rounded bg-zinc-100 px-2 py-1 font-mono dark:bg-zinc-800"
        data-testid="generated-password"
      >
        {password}
      </code>
      <CopyButton text={() => password} label="Copy password" />
    </p>
  );
}
