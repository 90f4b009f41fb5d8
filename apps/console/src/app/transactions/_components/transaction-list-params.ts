import { TRANSACTIONAL_ID_STATES } from '@weir/protocol/names';
import { createLoader, type inferParserType, parseAsBoolean, parseAsStringLiteral } from 'nuqs/server';
import type { TransactionListInput } from '../../../server/api/schemas/transactions';
import { listParams, listWindowInput } from '../../_components/list-params';

/** The sort keys the server accepts (see transactionSortKeySchema). */
export const transactionSortKeys = ['age', 'id', 'state', 'partitions'] as const;

/** Which transactions the list shows: open ones (the default), hanging ones, or every id. */
export const transactionScopes = ['open', 'hanging', 'all'] as const;

/**
 * The transaction list's URL state: the shared search, sort and paging (see `listParams`), which
 * transactions show and a state.
 */
export const transactionListParams = {
  ...listParams(transactionSortKeys, 'age'),
  /** Age sorts oldest first by default, the other keys ascending: no default, see isDescending. */
  desc: parseAsBoolean,
  show: parseAsStringLiteral(transactionScopes).withDefault('open'),
  state: parseAsStringLiteral(TRANSACTIONAL_ID_STATES),
};

export type TransactionListParams = inferParserType<typeof transactionListParams>;

export const loadTransactionListParams = createLoader(transactionListParams);

/** The sort direction shown: explicit in the URL, else the key's default. */
export function isDescending(params: TransactionListParams): boolean {
  return params.desc ?? params.sort === 'age';
}

/** The `transactions.list` input for the URL state; the server's prefetch and the client use the same one. */
export function transactionListInput(params: TransactionListParams): TransactionListInput {
  return {
    ...listWindowInput(params, isDescending(params)),
    state: params.state ?? undefined,
    openOnly: params.show === 'open' || undefined,
    hangingOnly: params.show === 'hanging' || undefined,
  };
}
