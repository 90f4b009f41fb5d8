/**
 * Shown on every page when the console runs without login (WEIR_CONSOLE_AUTH=none): whoever can
 * reach it acts as the console itself, a super user on the broker (issue #15). Says so plainly,
 * and how to change it.
 */
export function OpenModeNotice() {
  return (
    <div
      role="note"
      aria-label="Security notice"
      data-testid="open-mode-notice"
      className="border-amber-300 border-b bg-amber-50 px-4 py-2 text-amber-950 text-sm dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <strong>No login:</strong> everyone who can reach this console acts with its full rights on the broker
      (a super user: users, passwords, ACLs, topics). Keep it on loopback, or set{' '}
      <code className="font-mono">WEIR_CONSOLE_AUTH=login</code>.
    </div>
  );
}
