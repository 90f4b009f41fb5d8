'use client';

import { type ReactNode, useEffect, useRef } from 'react';

type ResultsLayoutProps = {
  results: ReactNode;
  /** The opened record's panel, or null when none is open. */
  record: ReactNode | null;
  /** Changes when another record opens, so that one is brought into view too. */
  recordKey: string;
};

/**
 * The rows and the opened record. From the xl breakpoint the record sits beside the rows and
 * stays in view while the page scrolls, so the row (its partition and offset) and its record
 * are seen together. Narrower, the record follows the rows and is scrolled into view when it
 * opens: below a long result list it would otherwise open below the fold.
 */
export function ResultsLayout({ results, record, recordKey }: ResultsLayoutProps) {
  const recordRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (recordKey !== '') recordRef.current?.scrollIntoView({ block: 'nearest' });
  }, [recordKey]);
  // One tree whether or not a record is open: remounting the rows would reset their scroll box
  // and lose the row just clicked.
  return (
    <div
      className={
        record === null
          ? 'grid gap-5'
          : 'grid gap-5 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] xl:items-start'
      }
    >
      <div className="min-w-0">{results}</div>
      {record === null ? null : (
        <div
          ref={recordRef}
          className="min-w-0 scroll-mt-4 xl:sticky xl:top-4 xl:max-h-[calc(100dvh-2rem)] xl:overflow-y-auto"
        >
          {record}
        </div>
      )}
    </div>
  );
}
