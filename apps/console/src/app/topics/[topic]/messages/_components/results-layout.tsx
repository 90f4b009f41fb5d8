'use client';

import { Panel } from '@weir/ui';
import { type ReactNode, useEffect, useRef } from 'react';
import type { MessageRow } from '../../../../../server/api/schemas/messages';
import type { DecodeMode } from './decode-payload';
import type { MessageParams } from './message-params';
import { recordKey } from './message-table';
import { RecordViewer } from './record-viewer';

type ResultsLayoutProps = {
  topic: string;
  results: ReactNode;
  /** The opened record (the row `params.open` names), or undefined when none is open. */
  open: MessageRow | undefined;
  params: MessageParams;
  setParams: (next: Partial<MessageParams>) => void;
};

/**
 * The rows and the opened record. From the xl breakpoint the record sits beside the rows and
 * stays in view while the page scrolls, so the row (its partition and offset) and its record
 * are seen together. Narrower, the record follows the rows and is scrolled into view when it
 * opens: below a long result list it would otherwise open below the fold.
 */
export function ResultsLayout({ topic, results, open, params, setParams }: ResultsLayoutProps) {
  const recordRef = useRef<HTMLDivElement>(null);
  // Changes when another record opens, so that one is brought into view too.
  const openKey = open === undefined ? '' : recordKey(open);
  useEffect(() => {
    if (openKey !== '') recordRef.current?.scrollIntoView({ block: 'nearest' });
  }, [openKey]);
  // One tree whether or not a record is open: remounting the rows would reset their scroll box
  // and lose the row just clicked.
  return (
    <div
      className={
        open === undefined
          ? 'grid gap-5'
          : 'grid gap-5 xl:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] xl:items-start'
      }
    >
      <div className="min-w-0">{results}</div>
      {open === undefined ? null : (
        <div
          ref={recordRef}
          className="min-w-0 scroll-mt-4 xl:sticky xl:top-4 xl:max-h-[calc(100dvh-2rem)] xl:overflow-y-auto"
        >
          <Panel title="Record">
            <RecordViewer
              topic={topic}
              record={open}
              mode={params.decode}
              onModeChange={(mode: DecodeMode) => setParams({ decode: mode })}
            />
          </Panel>
        </div>
      )}
    </div>
  );
}
