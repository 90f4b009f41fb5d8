import type { ReactNode } from 'react';

type ErrorStateProps = {
  title: string;
  /** The error as the server worded it. */
  message?: string | undefined;
  /** Usually a retry button. */
  action?: ReactNode;
};

/** A failed read, announced as an alert so it is not missed; the rest of the page keeps working. */
export function ErrorState({ title, message, action }: ErrorStateProps) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-rose-200 bg-rose-50 px-4 py-3 text-sm dark:border-rose-500/30 dark:bg-rose-500/10"
    >
      <div>
        <p className="font-medium text-rose-800 dark:text-rose-300">{title}</p>
        {message ? <p className="mt-0.5 text-rose-700 dark:text-rose-400">{message}</p> : null}
      </div>
      {action}
    </div>
  );
}
