/** What a broker-benchmark child sends its parent over IPC. */
export type ChildMessage =
  /** The task's outcome (for a service: once it is up, e.g. with its port). */
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; message: string }
  /** The timed phase starts or ends now; the parent samples the server's CPU at these points. */
  | { kind: 'mark'; label: 'start' | 'end' };

/**
 * What the parent sends a service child: `go` starts the timed work of a service that warmed up
 * first (so process start-up is not timed), `stop` ends it.
 */
export type ParentMessage = { kind: 'go' } | { kind: 'stop' };
