import { createLoader, parseAsInteger } from 'nuqs/server';

/**
 * The reassignments page's URL state: the broker whose drain to preview, so the Brokers page and
 * a broker's own page can link straight to it (/reassignments?drain=2).
 */
export const reassignmentParams = {
  drain: parseAsInteger,
};

export const loadReassignmentParams = createLoader(reassignmentParams);

/** The link that opens the drain preview of a broker. */
export function drainHref(nodeId: number): string {
  return `/reassignments?drain=${nodeId}#drain`;
}
