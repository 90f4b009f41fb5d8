import { Button, formatBytes, formatCount, showBidiControls } from '@weir/ui';
import { type DecodeMode, decodePayload, type PayloadLike, renderGuardBytes } from './decode-payload';

type PayloadViewProps = {
  label: string;
  payload: PayloadLike | null;
  mode: DecodeMode;
  /** Fetches the whole record when this payload was cut or is too large to render by default. */
  onLoadAnyway?: (() => void) | undefined;
  loading?: boolean;
  /** Why the last "load anyway" failed, shown beside the button so a retry is an informed one. */
  loadError?: string | undefined;
};

/**
 * One payload, decoded. Large or cut payloads are not rendered by default (a multi-megabyte value
 * can freeze the page); the guard says the data in the topic is intact and offers to load it.
 */
export function PayloadView({
  label,
  payload,
  mode,
  onLoadAnyway,
  loading = false,
  loadError,
}: PayloadViewProps) {
  if (payload === null) {
    return (
      <Section label={label}>
        <p className="text-xs text-zinc-500">null{label === 'Value' ? ' (a tombstone)' : ''}</p>
      </Section>
    );
  }
  const guarded = payload.truncated || payload.sizeBytes > renderGuardBytes;
  if (guarded && onLoadAnyway) {
    return (
      <Section label={label}>
        <div className="flex flex-wrap items-center gap-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-xs dark:border-amber-500/30 dark:bg-amber-500/10">
          <span>
            {label} is {formatBytes(payload.sizeBytes)} ({formatCount(payload.sizeBytes)} bytes). It is not
            shown by default to keep the page responsive; the record in the topic is intact.
          </span>
          <Button size="sm" onClick={onLoadAnyway} disabled={loading}>
            {loading ? 'Loading…' : 'Load anyway'}
          </Button>
          {loadError ? (
            <span role="alert" className="text-rose-700 dark:text-rose-400">
              Could not load it: {loadError}
            </span>
          ) : null}
        </div>
      </Section>
    );
  }
  const decoded = decodePayload(payload, mode);
  return (
    <Section label={label} size={payload.sizeBytes}>
      {decoded.note ? (
        <p className="mb-1 text-amber-700 text-xs dark:text-amber-400">{decoded.note}</p>
      ) : null}
      <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950">
        {showBidiControls(decoded.text)}
      </pre>
    </Section>
  );
}

function Section({ label, size, children }: { label: string; size?: number; children: React.ReactNode }) {
  return (
    <section aria-label={label}>
      <h3 className="mb-1 font-medium text-xs text-zinc-500 dark:text-zinc-400">
        {label}
        {size !== undefined ? <span className="font-normal"> · {formatCount(size)} bytes</span> : null}
      </h3>
      {children}
    </section>
  );
}
