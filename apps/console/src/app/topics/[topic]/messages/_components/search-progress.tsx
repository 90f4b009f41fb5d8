import { Button, formatBytes, formatCount, ProgressBar } from '@weir/ui';
import { coveredFraction } from './search-coverage';
import type { SearchProgress as Progress } from './use-message-search';

type SearchProgressProps = {
  progress: Progress;
  running: boolean;
  stopped: boolean;
  rowCount: number;
  onStop: () => void;
};

const phaseLabels: Record<Progress['phase'], string> = {
  connecting: 'Connecting',
  'resolving-offsets': 'Resolving start offsets',
  scanning: 'Scanning',
  done: 'Done',
};

/**
 * The search's state machine in words and numbers, live; a polite live region announces it. The bar
 * is the share of the offset span read so far (progress arrives at most four times a second).
 */
export function SearchProgress({ progress, running, stopped, rowCount, onStop }: SearchProgressProps) {
  const phase = stopped && progress.phase !== 'done' ? 'Stopped' : phaseLabels[progress.phase];
  const covered = coveredFraction(progress.partitions);
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300">
      <span role="status" aria-live="polite" aria-label="Search status" className="font-medium">
        {phase}
        {running ? '…' : ''} · {formatCount(rowCount)} shown
      </span>
      {covered === undefined ? null : <ProgressBar label="Offset span covered" fraction={covered} />}
      <span className="tabular-nums">scanned {formatCount(progress.scannedRecords)} records</span>
      <span className="tabular-nums">{formatBytes(progress.scannedBytes)}</span>
      <span className="tabular-nums">matched {formatCount(progress.matchedRecords)}</span>
      <span className="tabular-nums">{(progress.elapsedMs / 1000).toFixed(1)} s</span>
      {running ? (
        <Button size="sm" variant="danger" onClick={onStop}>
          Stop
        </Button>
      ) : null}
    </div>
  );
}
