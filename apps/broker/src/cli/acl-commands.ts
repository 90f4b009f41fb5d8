import type { Readable, Writable } from 'node:stream';
import {
  ACL_OPERATIONS,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclResourceType,
  type Admin,
  CLUSTER_RESOURCE_NAME,
} from '@weir/protocol';
import { confirmByTyping } from './confirm-by-typing';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** The user did not confirm, so nothing was deleted: a failure, so scripts do not carry on. */
const EXIT_NOT_CONFIRMED = 1;

/** The resource flags shared by list, create and delete; at most one resource may be named. */
export interface AclResourceFlags {
  topic?: string;
  group?: string;
  transactionalId?: string;
  cluster: boolean;
  prefixed: boolean;
}

export interface AclIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

/** The resource the flags name, or undefined for none; two resources is a usage error. */
function resourceOf(flags: AclResourceFlags): { type: AclResourceType; name: string } | undefined {
  const named: { type: AclResourceType; name: string }[] = [];
  if (flags.topic !== undefined) named.push({ type: 'TOPIC', name: flags.topic });
  if (flags.group !== undefined) named.push({ type: 'GROUP', name: flags.group });
  if (flags.transactionalId !== undefined)
    named.push({ type: 'TRANSACTIONAL_ID', name: flags.transactionalId });
  if (flags.cluster) named.push({ type: 'CLUSTER', name: CLUSTER_RESOURCE_NAME });
  if (named.length > 1) {
    throw new UsageError('name one resource: --topic, --group, --transactional-id or --cluster');
  }
  if (flags.prefixed && (named[0] === undefined || named[0].type === 'CLUSTER')) {
    throw new UsageError('--prefixed needs --topic, --group or --transactional-id');
  }
  return named[0];
}

/** `OPERATION` as given on the command line, case-insensitively. */
export function parseOperation(text: string): AclOperation {
  const operation = text.toUpperCase().replaceAll('-', '_') as AclOperation;
  if (!ACL_OPERATIONS.includes(operation)) {
    throw new UsageError(`unknown operation "${text}"; one of ${ACL_OPERATIONS.join(', ')}`);
  }
  return operation;
}

function checkPrincipal(principal: string): string {
  if (!/^User:.+/.test(principal)) throw new UsageError(`a principal is User:<name>, not "${principal}"`);
  return principal;
}

function printAcls(acls: readonly AclBinding[], out: Writable): void {
  out.write(
    formatTable(
      ['PERMISSION', 'PRINCIPAL', 'HOST', 'OPERATION', 'RESOURCE', 'NAME', 'PATTERN'],
      acls.map((acl) => [
        acl.permission,
        acl.principal,
        acl.host,
        acl.operation,
        acl.resourceType,
        acl.resourceName,
        acl.patternType,
      ]),
    ),
  );
}

/**
 * `weir acl list`: the ACLs that apply to a resource (its LITERAL ACLs, `*` and matching prefixes;
 * with `--prefixed`, only PREFIXED ACLs of exactly that prefix), or every ACL, optionally of one
 * principal.
 */
export async function aclListCommand(
  admin: Admin,
  options: AclResourceFlags & { principal?: string },
  io: AclIo,
): Promise<undefined> {
  const resource = resourceOf(options);
  const acls = await admin.describeAcls({
    resourceType: resource?.type ?? 'ANY',
    resourceName: resource?.name ?? null,
    patternType: resource === undefined ? 'ANY' : options.prefixed ? 'PREFIXED' : 'MATCH',
    principal: options.principal === undefined ? null : checkPrincipal(options.principal),
    host: null,
    operation: 'ANY',
    permission: 'ANY',
  });
  if (acls.length === 0) io.stderr.write('No ACLs match.\n');
  else printAcls(acls, io.stdout);
  return undefined;
}

/** `weir acl create`: one ACL per operation given, for one principal on one resource. */
export async function aclCreateCommand(
  admin: Admin,
  options: AclResourceFlags & {
    allow: boolean;
    deny: boolean;
    principal: string;
    operations: AclOperation[];
    host: string;
  },
  io: AclIo,
): Promise<undefined> {
  if (options.allow === options.deny) throw new UsageError('give exactly one of --allow and --deny');
  const resource = resourceOf(options);
  if (resource === undefined) {
    throw new UsageError('name the resource: --topic, --group, --transactional-id or --cluster');
  }
  if (options.operations.length === 0) throw new UsageError('give at least one --operation');
  const acls: AclBinding[] = options.operations.map((operation) => ({
    resourceType: resource.type,
    resourceName: resource.name,
    patternType: options.prefixed ? 'PREFIXED' : 'LITERAL',
    principal: checkPrincipal(options.principal),
    host: options.host,
    operation,
    permission: options.allow ? 'ALLOW' : 'DENY',
  }));
  await admin.createAcls(acls);
  io.stderr.write(`Created ${acls.length} ACL${acls.length === 1 ? '' : 's'}:\n`);
  printAcls(acls, io.stdout);
  return undefined;
}

/**
 * `weir acl delete`: removes the ACLs the flags select exactly (a named resource means its LITERAL
 * ACLs, or PREFIXED with `--prefixed`). It shows them first and, without `--yes`, asks the user to
 * type their number, so a broad filter cannot silently open or close access.
 */
export async function aclDeleteCommand(
  admin: Admin,
  options: AclResourceFlags & {
    allow: boolean;
    deny: boolean;
    principal?: string;
    operations: AclOperation[];
    host?: string;
    yes: boolean;
  },
  io: AclIo,
): Promise<number | undefined> {
  if (options.allow && options.deny) throw new UsageError('give at most one of --allow and --deny');
  const resource = resourceOf(options);
  const base: Omit<AclBindingFilter, 'operation'> = {
    resourceType: resource?.type ?? 'ANY',
    resourceName: resource?.name ?? null,
    patternType: resource === undefined ? 'ANY' : options.prefixed ? 'PREFIXED' : 'LITERAL',
    principal: options.principal === undefined ? null : checkPrincipal(options.principal),
    host: options.host ?? null,
    permission: options.allow ? 'ALLOW' : options.deny ? 'DENY' : 'ANY',
  };
  const filters: AclBindingFilter[] =
    options.operations.length === 0
      ? [{ ...base, operation: 'ANY' }]
      : options.operations.map((operation) => ({ ...base, operation }));
  if (!options.yes) {
    if (io.stdin.isTTY !== true) {
      throw new UsageError('refusing to delete ACLs without --yes (stdin is not a terminal to confirm on)');
    }
    const matching = (await Promise.all(filters.map((filter) => admin.describeAcls(filter)))).flat();
    if (matching.length === 0) {
      io.stderr.write('No ACLs match; nothing deleted.\n');
      return undefined;
    }
    printAcls(matching, io.stderr);
    const count = String(matching.length);
    const confirmed = await confirmByTyping(
      `Deleting these ${count} ACLs changes who may do what. Type ${count} to confirm: `,
      count,
      { input: io.stdin, output: io.stderr },
    );
    if (!confirmed) {
      io.stderr.write('No ACLs were deleted.\n');
      return EXIT_NOT_CONFIRMED;
    }
  }
  const deleted = (await admin.deleteAcls(filters)).flat();
  io.stderr.write(`Deleted ${deleted.length} ACL${deleted.length === 1 ? '' : 's'}.\n`);
  if (deleted.length > 0) printAcls(deleted, io.stdout);
  return undefined;
}
