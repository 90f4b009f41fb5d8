import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { ErrorCode, type InternalAdmin, type UserScramMechanism, WeirError } from '@weir/protocol';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** Random bytes in a generated password: 144 bits, 24 URL-safe characters. */
const GENERATED_PASSWORD_BYTES = 18;

export interface UserCommandDeps {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

export interface UserCredentialOptions {
  name: string;
  mechanisms: readonly UserScramMechanism[];
  iterations?: number;
  passwordStdin: boolean;
}

/** `weir user list`: NAME and its MECHANISMS with iterations, sorted by name. */
export async function userListCommand(internal: InternalAdmin, deps: UserCommandDeps): Promise<undefined> {
  const users = await internal.listUsers();
  const rows = users.map((user) => [
    user.name,
    user.credentials.map((credential) => `${credential.mechanism}(${credential.iterations})`).join(','),
  ]);
  deps.stdout.write(formatTable(['NAME', 'MECHANISMS'], rows));
  return undefined;
}

/**
 * `weir user create`: refuses a user that exists (`passwd` changes a password), so a typo cannot
 * silently reset someone's credentials. Without `--password-stdin` a password is generated and
 * printed once, on stdout alone, so `$(weir user create …)` captures it.
 */
export async function userCreateCommand(
  internal: InternalAdmin,
  options: UserCredentialOptions,
  deps: UserCommandDeps,
): Promise<undefined> {
  const users = await internal.listUsers();
  if (users.some((user) => user.name === options.name)) {
    throw new WeirError(ErrorCode.DUPLICATE_RESOURCE, {
      detail: `user "${options.name}" already exists; \`weir user passwd\` changes its password`,
    });
  }
  await setCredentials(internal, options, deps, 'Created');
  return undefined;
}

/** `weir user passwd`: new credentials for an existing user (RESOURCE_NOT_FOUND otherwise). */
export async function userPasswdCommand(
  internal: InternalAdmin,
  options: UserCredentialOptions,
  deps: UserCommandDeps,
): Promise<undefined> {
  const users = await internal.listUsers();
  if (!users.some((user) => user.name === options.name)) {
    throw new WeirError(ErrorCode.RESOURCE_NOT_FOUND, { detail: `user "${options.name}" does not exist` });
  }
  await setCredentials(internal, options, deps, 'Changed the password of');
  return undefined;
}

/** `weir user delete`: the user, or only its credential for `--mechanism`. */
export async function userDeleteCommand(
  internal: InternalAdmin,
  options: { name: string; mechanism?: UserScramMechanism },
  deps: UserCommandDeps,
): Promise<undefined> {
  await internal.deleteUser(options.name, options.mechanism);
  deps.stderr.write(
    options.mechanism === undefined
      ? `Deleted user "${options.name}".\n`
      : `Deleted the ${options.mechanism} credential of "${options.name}".\n`,
  );
  return undefined;
}

async function setCredentials(
  internal: InternalAdmin,
  options: UserCredentialOptions,
  deps: UserCommandDeps,
  verb: string,
): Promise<void> {
  const given = options.passwordStdin ? await readPassword(deps.stdin) : undefined;
  const password = given ?? randomBytes(GENERATED_PASSWORD_BYTES).toString('base64url');
  for (const mechanism of options.mechanisms) {
    await internal.upsertUser({
      username: options.name,
      mechanism,
      password,
      ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
    });
  }
  deps.stderr.write(`${verb} user "${options.name}" (${options.mechanisms.join(', ')}).\n`);
  if (given === undefined) {
    deps.stdout.write(`${password}\n`);
    deps.stderr.write('Its generated password is on stdout above; it is not shown again.\n');
  }
}

/** The whole of stdin without its final line break; refused when empty. */
async function readPassword(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  const password = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (password.length === 0) throw new UsageError('--password-stdin: stdin held no password');
  return password;
}
