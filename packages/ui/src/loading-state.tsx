/** A quiet placeholder while the first read is in flight; `aria-busy` tells assistive tech to wait. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div
      aria-busy="true"
      className="flex items-center gap-2 px-4 py-8 text-sm text-zinc-500 dark:text-zinc-400"
    >
      <span
        aria-hidden="true"
        className="size-3 animate-spin rounded-full border-2 border-zinc-300 border-t-teal-600 dark:border-zinc-700 dark:border-t-teal-400"
      />
      {label}
    </div>
  );
}
