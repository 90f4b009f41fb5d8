import { StatusBadge, showBidiControls } from '@weir/ui';
import type { EffectivePermissionsView } from '../../../../server/api/schemas/effective-permissions';

/** The internal listener's token principal: the console itself (docs/architecture.md §7). */
const CONSOLE_PRINCIPAL = 'User:weir-internal';

/**
 * The two settings that decide before any ACL does: a super user may do everything, and with
 * allow.everyone.if.no.acl.found a resource no ACL names is open to all.
 */
export function PermissionSummary({ view }: { view: EffectivePermissionsView }) {
  const allowedCount = view.resources.filter((resource) =>
    resource.operations.some((verdict) => verdict.allowed),
  ).length;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="permission-summary">
      <span className="font-mono">{showBidiControls(view.principal)}</span>
      <span className="text-zinc-500 dark:text-zinc-400">
        from {view.host === '*' ? 'any host' : view.host}:
      </span>
      {view.superUser ? (
        <StatusBadge tone="warning">Super user: ACLs are not consulted</StatusBadge>
      ) : (
        <StatusBadge tone="neutral">Not a super user</StatusBadge>
      )}
      {view.allowEveryoneIfNoAclFound ? (
        <StatusBadge tone="warning">allow.everyone.if.no.acl.found is on</StatusBadge>
      ) : (
        <StatusBadge tone="neutral">allow.everyone.if.no.acl.found is off</StatusBadge>
      )}
      <span className="text-zinc-500 dark:text-zinc-400">
        Something is allowed on {allowedCount} of {view.resources.length} resources.
      </span>
      {view.principal === CONSOLE_PRINCIPAL ? (
        <span className="basis-full text-zinc-600 dark:text-zinc-300">
          This is the console's own identity (and the other brokers') on the internal listener, a super user
          there; without login, everyone who reaches the console acts as it. A client-listener user of that
          name gets no such rights.
        </span>
      ) : null}
    </p>
  );
}
