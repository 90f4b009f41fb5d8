import type { ReactNode } from 'react';
import { Button } from './button';

type PagerProps = {
  /** Names the navigation landmark, e.g. "Topic pages". */
  label: string;
  /** Text between the buttons, e.g. "1–50 of 1,204". */
  summary: ReactNode;
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
};

/** Previous/next paging; a missing handler disables its button (first or last page). */
export function Pager({ label, summary, onPrevious, onNext }: PagerProps) {
  return (
    <nav
      aria-label={label}
      className="flex items-center justify-end gap-3 text-xs text-zinc-500 dark:text-zinc-400"
    >
      <span className="tabular-nums">{summary}</span>
      <Button size="sm" onClick={onPrevious} disabled={!onPrevious}>
        Previous
      </Button>
      <Button size="sm" onClick={onNext} disabled={!onNext}>
        Next
      </Button>
    </nav>
  );
}
