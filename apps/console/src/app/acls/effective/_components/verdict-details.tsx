import { showBidiControls } from '@weir/ui';
import type { OperationVerdictView } from '../../../../server/api/schemas/effective-permissions';
import { aclKey, describeAcl } from '../../_components/acl-text';
import { REASON_TEXT } from './permission-filters';

type VerdictDetailsProps = { resourceText: string; verdict: OperationVerdictView };

/** One verdict explained: allowed or denied, the reason, and the ACLs that decided it. */
export function VerdictDetails({ resourceText, verdict }: VerdictDetailsProps) {
  return (
    <section
      aria-label={`Why ${verdict.operation} on ${resourceText}`}
      className="flex flex-col gap-1 rounded-md bg-zinc-50 px-3 py-2 text-xs dark:bg-zinc-800/60"
    >
      <p>
        <strong>{verdict.operation}</strong> is {verdict.allowed ? 'allowed' : 'denied'}:{' '}
        <span className="font-mono">{verdict.reason}</span>, {REASON_TEXT[verdict.reason]}.
      </p>
      {verdict.acls.length > 0 ? (
        <ul className="flex flex-col gap-0.5 font-mono">
          {verdict.acls.map((acl) => (
            <li key={aclKey(acl)}>
              {showBidiControls(describeAcl(acl))}
              {acl.patternType === 'PREFIXED' ? '* (prefixed)' : ''} from {showBidiControls(acl.host)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
