// The public entry point of @weir/test-broker. Every name is listed explicitly: no `export *`.

export type { RunningBroker } from './start-broker';
export { startBroker, TEST_INTERNAL_TOKEN } from './start-broker';
export type { TemporaryDirectory } from './temporary-directory';
export { temporaryDirectory } from './temporary-directory';
