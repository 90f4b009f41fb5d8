'use client';

import { type ReactNode, useEffect, useId, useRef } from 'react';

type DialogProps = {
  open: boolean;
  title: string;
  /** Called when the user dismisses the dialog (Escape or the close button). */
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom right; the first focusable control in the body gets focus on open. */
  footer?: ReactNode;
  size?: 'md' | 'lg';
};

/**
 * A modal built on the native `<dialog>`: the browser provides the focus trap, Escape, inertness of
 * the page behind it and the `dialog` role. It is named by its title for tests and assistive tech.
 */
export function Dialog({ open, title, onClose, children, footer, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  // The element must be told imperatively; `open` as an attribute would make it non-modal.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape closes through React state, so `open` stays the single source of truth.
        event.preventDefault();
        onClose();
      }}
      className={`m-auto w-full ${size === 'lg' ? 'max-w-3xl' : 'max-w-lg'} rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      {open ? (
        <div className="flex max-h-[85dvh] flex-col">
          <div className="flex items-center justify-between gap-4 border-zinc-200 border-b px-5 py-3 dark:border-zinc-800">
            <h2 id={titleId} className="font-semibold text-sm">
              {title}
            </h2>
            <button
              type="button"
              aria-label="Close"
              onClick={onClose}
              className="rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
            >
              <svg
                viewBox="0 0 16 16"
                aria-hidden="true"
                className="size-3.5"
                stroke="currentColor"
                strokeWidth="1.8"
              >
                <path d="M3.5 3.5l9 9M12.5 3.5l-9 9" />
              </svg>
            </button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 text-sm">{children}</div>
          {footer ? (
            <div className="flex justify-end gap-2 border-zinc-200 border-t px-5 py-3 dark:border-zinc-800">
              {footer}
            </div>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}
