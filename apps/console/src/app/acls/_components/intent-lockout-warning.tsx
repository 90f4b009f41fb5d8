import { Checkbox, showBidiControls } from '@weir/ui';
import type { AclLockout } from '../../../server/api/schemas/acl-intents';
import { lockoutSentence } from './lockout-text';

type IntentLockoutWarningProps = {
  lockout: AclLockout;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
};

/** Whether the preview takes access from anyone, so the person must confirm before creating. */
export function locksAnyoneOut(lockout: AclLockout): boolean {
  return lockout.entries.length > 0;
}

/**
 * The preview's warning when the new ACLs are the first on a resource the broker opens to everyone
 * (allow.everyone.if.no.acl.found): who loses what, the grantee's own losses apart (it keeps what
 * the intent grants), which principals could not be checked, and the confirmation Create waits for.
 */
export function IntentLockoutWarning({ lockout, confirmed, onConfirmedChange }: IntentLockoutWarningProps) {
  const others = lockout.entries.filter((entry) => !entry.grantee);
  const grantee = lockout.entries.filter((entry) => entry.grantee);
  return (
    <section
      aria-labelledby="lockout-heading"
      className="flex flex-col gap-2 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <h3 id="lockout-heading" className="font-semibold">
        Who loses access
      </h3>
      <p>
        No ACL names these resources yet, and the broker allows everyone where no ACL is found. The first ACL
        closes a resource to every principal it does not grant:
      </p>
      {others.length > 0 ? (
        <ul aria-label="Principals who lose access" className="list-disc pl-5">
          {others.map((entry) => (
            <li key={`${entry.principal}|${entry.resourceType}|${entry.resourceName}`}>
              {lockoutSentence(entry)}.
            </li>
          ))}
        </ul>
      ) : null}
      {grantee.length > 0 ? (
        <ul aria-label="What the grantee loses" className="list-disc pl-5">
          {grantee.map((entry) => (
            <li key={`${entry.resourceType}|${entry.resourceName}`}>
              {lockoutSentence(entry)} (it keeps what these ACLs grant).
            </li>
          ))}
        </ul>
      ) : null}
      <p className="text-xs">
        Checked for the {lockout.principalsChecked.length} principals the broker knows (its SASL users and the
        principals ACLs name)
        {lockout.principalsUnchecked > 0 ? `; ${lockout.principalsUnchecked} more were not checked` : ''}.
        Principals it does not know, such as clients that authenticate with a certificate and appear in no
        ACL, cannot be listed and lose access too. Super users never do.
      </p>
      <Checkbox
        label={`I understand that ${others.length > 0 ? 'these principals lose' : `${showBidiControls(grantee[0]?.principal ?? '')} loses`} this access`}
        checked={confirmed}
        onChange={(event) => onConfirmedChange(event.target.checked)}
      />
    </section>
  );
}
