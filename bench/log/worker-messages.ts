/** What a benchmark child sends its parent once its task is done. */
export type WorkerMessage = { kind: 'result'; value: unknown } | { kind: 'error'; message: string };
