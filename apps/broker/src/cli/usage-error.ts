/** Exit status for a command line that cannot be run as given (a bad flag value, a missing flag). */
export const EXIT_USAGE = 2;

/**
 * A mistake in the command line that commander's own checks cannot see (a combination of flags, a
 * file that cannot be read). Reported like commander's errors: `error: <message>`, exit status 2.
 * The message names the flag, so the user knows what to fix.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
