import { z } from 'zod';

/**
 * Where a principal list given as one string (an environment variable or `--set`) splits: at a
 * comma that starts the next `User:` principal. A plain comma list would cut DN principals such as
 * `User:CN=weir-console,O=Acme` apart; an escaped comma (`\,` inside an RFC 2253 value) never splits.
 */
const NEXT_PRINCIPAL = /(?<!\\),(?=\s*User:)/;

/** A list of principals (`User:<name>`), as YAML or as `User:a,User:CN=b,O=c` in one string. */
export function principalList() {
  return z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(NEXT_PRINCIPAL)
            .map((part) => part.trim())
            .filter((part) => part.length > 0)
        : value,
    z.array(z.string().regex(/^User:.+/, 'a principal is User:<name>')),
  );
}
