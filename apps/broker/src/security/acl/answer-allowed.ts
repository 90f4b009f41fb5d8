import { errorCodeInfo } from '@weir/protocol';
import type { AclRule } from './api-acl-rules';

/**
 * Runs a per-item service call on the allowed items only, and answers every item in its original order:
 * the service's results for the allowed ones, `deniedAnswer` for the others. The service never
 * sees a denied item, so a denial changes nothing. `run` must answer its items in order.
 */
export async function answerAllowed<T, R>(
  items: readonly T[],
  isAllowed: (item: T) => boolean,
  run: (allowed: T[]) => Promise<readonly R[]> | readonly R[],
  deniedAnswer: (item: T) => NoInfer<R>,
): Promise<R[]> {
  const verdicts = items.map(isAllowed);
  const allowed = items.filter((_, index) => verdicts[index]);
  const results = allowed.length === 0 ? [] : await run(allowed);
  let next = 0;
  return items.map((item, index) => (verdicts[index] ? results[next++]! : deniedAnswer(item)));
}

/** A denied item as a failed item result: the rule's code with that code's own message. */
export function denial(rule: AclRule): { ok: false; errorCode: number; errorMessage: string } {
  return {
    ok: false,
    errorCode: rule.denied,
    errorMessage: errorCodeInfo(rule.denied)?.message ?? 'Not authorized.',
  };
}
