import { classNames } from '@weir/ui';
import type { OperationVerdictView } from '../../../../server/api/schemas/effective-permissions';
import { describeAcl } from '../../_components/acl-text';
import { REASON_TEXT } from './permission-filters';

/**
 * Allowed is green; denied by a DENY ACL red (someone chose it); denied for want of an ALLOW grey.
 * The grey chip's text is zinc-600: zinc-500 on zinc-100 is 4.39:1, below WCAG AA's 4.5:1.
 */
const TONE_CLASS_NAMES = {
  allowed:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-500/30',
  denied:
    'bg-rose-50 text-rose-800 ring-rose-200 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-500/30',
  notAllowed:
    'bg-zinc-100 text-zinc-600 ring-zinc-200 dark:bg-zinc-800 dark:text-zinc-400 dark:ring-zinc-700',
} as const;

type OperationChipProps = {
  verdict: OperationVerdictView;
  expanded: boolean;
  onToggle: () => void;
};

/**
 * One operation's verdict as a chip: a tick or a cross and the colour say it, and so do the words
 * of its accessible name. Hovering shows the reason and the deciding ACLs; clicking expands them.
 */
export function OperationChip({ verdict, expanded, onToggle }: OperationChipProps) {
  const verdictText = verdict.allowed ? 'allowed' : 'denied';
  const tooltip = [
    `${verdict.operation} ${verdictText}: ${REASON_TEXT[verdict.reason]}`,
    ...verdict.acls.map(describeAcl),
  ].join('\n');
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-label={`${verdict.operation}: ${verdictText} (${verdict.reason})`}
      title={tooltip}
      onClick={onToggle}
      className={classNames(
        'inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-px font-medium text-[11px] ring-1 ring-inset',
        TONE_CLASS_NAMES[
          verdict.allowed ? 'allowed' : verdict.reason === 'DENY_ACL' ? 'denied' : 'notAllowed'
        ],
        expanded && 'outline-2 outline-teal-600 outline-offset-1',
      )}
    >
      <span aria-hidden="true">{verdict.allowed ? '✓' : '✕'}</span>
      {verdict.operation}
    </button>
  );
}
