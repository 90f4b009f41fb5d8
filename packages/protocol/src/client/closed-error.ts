/**
 * Raised by a Client, Producer, Consumer or Admin once it is closed: by calls made afterwards, and
 * by operations that were still waiting to retry when it closed. It describes the caller's own
 * state rather than anything a broker said, so unlike {@link WeirError} it carries no Kafka code;
 * test for it with `instanceof`.
 */
export class ClosedError extends Error {
  override readonly name = 'ClosedError';

  constructor(what: string) {
    super(`${what} is closed`);
  }
}
