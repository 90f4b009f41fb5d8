/** What a broker-benchmark child sends its parent over IPC. */
export type ChildMessage =
  /** The task's outcome (for a service: once it is up, e.g. with its port). */
  | { kind: 'result'; value: unknown }
  | { kind: 'error'; message: string }
  /** The timed phase starts or ends now; the parent samples the server's CPU at these points. */
  | { kind: 'mark'; label: 'start' | 'end' }
  /** A service's answer to `phase-end`: what it measured of itself (undefined if it measures nothing). */
  | { kind: 'phase'; value: unknown };

/**
 * What the parent sends a service child: `go` starts the timed work of a service that warmed up
 * first (so process start-up is not timed), `stop` ends it; `phase-start` and `phase-end` bracket
 * a client's timed phase so a server can measure itself over exactly that phase.
 */
export type ParentMessage =
  | { kind: 'go' }
  | { kind: 'stop' }
  | { kind: 'phase-start'; name: string }
  | { kind: 'phase-end' };
