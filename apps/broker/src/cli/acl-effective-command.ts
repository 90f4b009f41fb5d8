import type { Writable } from 'node:stream';
import type { EffectivePermissions, InternalAdmin } from '@weir/protocol';
import { formatTable } from './table';
import { UsageError } from './usage-error';

export interface AclEffectiveOptions {
  principal: string;
  host: string;
  json: boolean;
}

/**
 * `weir acl effective`: what a principal may do, as the broker's own authorizer decides it (super
 * users, `allowEveryoneIfNoAclFound`, DENY precedence, prefixes and implied operations included),
 * one row per resource and operation. `--json` prints the whole answer, ACLs behind each verdict
 * included, for scripts.
 */
export async function aclEffectiveCommand(
  internal: InternalAdmin,
  options: AclEffectiveOptions,
  io: { stdout: Writable; stderr: Writable },
): Promise<undefined> {
  if (!/^User:.+/.test(options.principal)) {
    throw new UsageError(`a principal is User:<name>, not "${options.principal}"`);
  }
  const permissions = await internal.describeEffectivePermissions(options.principal, options.host);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(permissions, null, 2)}\n`);
    return undefined;
  }
  io.stderr.write(`${summaryLine(permissions)}\n`);
  io.stdout.write(
    formatTable(
      ['TYPE', 'RESOURCE', 'PATTERN', 'EXISTS', 'OPERATION', 'VERDICT', 'REASON'],
      permissions.resources.flatMap((resource) =>
        resource.operations.map((verdict) => [
          resource.resourceType,
          resource.resourceName,
          resource.patternType,
          resource.exists ? 'yes' : 'no',
          verdict.operation,
          verdict.allowed ? 'ALLOW' : 'DENY',
          verdict.reason,
        ]),
      ),
    ),
  );
  return undefined;
}

/** Who was asked about and the two settings that decide verdicts without any ACL. */
function summaryLine(permissions: EffectivePermissions): string {
  const host = permissions.host === '*' ? 'any host (only ACLs for every host apply)' : permissions.host;
  const superUser = permissions.superUser ? '; a super user: every operation is allowed' : '';
  const fallback = permissions.allowEveryoneIfNoAclFound ? 'allowed' : 'denied';
  return `${permissions.principal} from ${host}${superUser}; a resource without ACLs is ${fallback} (allowEveryoneIfNoAclFound)`;
}
