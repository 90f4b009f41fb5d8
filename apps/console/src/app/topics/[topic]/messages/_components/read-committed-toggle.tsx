'use client';

import { Checkbox } from '@weir/ui';
import type { MessageParams } from './message-params';

/**
 * The "Read committed" view option, kept in the URL (`rc=true`): the results become what a
 * read_committed consumer sees. It changes what is read, so the search starts again from its start
 * position (earlier pages' cursors belong to the other view).
 */
export function ReadCommittedToggle({
  params,
  setParams,
}: {
  params: MessageParams;
  setParams: (next: Partial<MessageParams>) => void;
}) {
  return (
    <span title="Show what a read_committed consumer sees: no records of aborted transactions, and in each partition nothing at or after the first record of a transaction still open (the last stable offset).">
      <Checkbox
        label="Read committed"
        checked={params.rc}
        onChange={(event) => setParams({ rc: event.target.checked, cursor: '', prev: [], open: '' })}
      />
    </span>
  );
}
