/**
 * The Weir version the broker reports (WeirDescribeBroker, logs). Kept as a constant rather than
 * read from package.json at run time, so it does not depend on where the files are installed;
 * version.test.ts keeps it equal to apps/broker/package.json.
 */
export const WEIR_VERSION = '0.1.0';
