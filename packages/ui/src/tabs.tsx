'use client';

import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { classNames } from './class-names';

export type TabItem = { id: string; label: string; count?: string | undefined };

type TabsProps = {
  /** Names the tab list, e.g. "Topic sections". */
  label: string;
  items: readonly TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  /** The selected tab's content; it is wrapped in the `tabpanel` the selected tab controls. */
  children: ReactNode;
};

/**
 * Tabs following the WAI-ARIA pattern: one tab stop, arrow keys move between tabs. The selection is
 * controlled so pages can keep it in the URL.
 */
export function Tabs({ label, items, selected, onSelect, children }: TabsProps) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const index = items.findIndex((item) => item.id === selected);
    const next = items[(index + step + items.length) % items.length];
    if (!next) return;
    event.preventDefault();
    onSelect(next.id);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-tab="${next.id}"]`)?.focus();
  };

  return (
    <div className="flex flex-col gap-4">
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-zinc-200 border-b dark:border-zinc-800"
      >
        {items.map((item) => {
          const active = item.id === selected;
          return (
            <button
              key={item.id}
              type="button"
              role="tab"
              data-tab={item.id}
              id={`${baseId}-tab-${item.id}`}
              aria-selected={active}
              aria-controls={`${baseId}-panel`}
              tabIndex={active ? 0 : -1}
              onClick={() => onSelect(item.id)}
              className={classNames(
                '-mb-px inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 font-medium text-sm focus-visible:outline-2 focus-visible:outline-teal-600',
                active
                  ? 'border-teal-600 text-teal-800 dark:border-teal-400 dark:text-teal-300'
                  : 'border-transparent text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-100',
              )}
            >
              {item.label}
              {item.count !== undefined ? (
                <span className="rounded bg-zinc-100 px-1 text-[11px] text-zinc-600 tabular-nums dark:bg-zinc-800 dark:text-zinc-300">
                  {item.count}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${selected}`}>
        {children}
      </div>
    </div>
  );
}
