import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import { type AdminItemFailure, AdminItemsError } from './admin-error';
import { partitionKey } from './leader-requests';

/** Refuses a call that names an item twice: its answers could not be told apart. */
export function unique(operation: string, names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new RangeError(`${operation}: ${name} is listed twice`);
    seen.add(name);
  }
}

/** The error of an item the broker's answer left out. */
export function missingAnswer(item: string): WeirError {
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: `the broker's answer does not mention ${item}.`,
  });
}

/** The value of every item in order, or an AdminItemsError naming the failed ones. */
export function collect<T>(
  operation: string,
  items: readonly { readonly topic: string; readonly partition: number }[],
  results: Map<string, T | WeirError>,
): T[] {
  const values: T[] = [];
  const failures: AdminItemFailure[] = [];
  for (const item of items) {
    const name = `${item.topic}-${item.partition}`;
    const result = results.get(partitionKey(item.topic, item.partition));
    if (result === undefined) failures.push({ item: name, error: missingAnswer(name) });
    else if (result instanceof WeirError) failures.push({ item: name, error: result });
    else values.push(result);
  }
  if (failures.length > 0) throw new AdminItemsError(operation, failures, items.length);
  return values;
}
