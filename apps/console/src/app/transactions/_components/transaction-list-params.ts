import {
  createLoader,
  type inferParserType,
  parseAsBoolean,
  parseAsInteger,
  parseAsString,
  parseAsStringLiteral,
} from 'nuqs/server';
import { type TransactionListInput, transactionStates } from '../../../server/api/schemas/transactions';

/** The sort keys the server accepts (see transactionSortKeySchema). */
export const transactionSortKeys = ['age', 'id', 'state', 'partitions'] as const;

/** Which transactions the list shows: open ones (the default), hanging ones, or every id. */
export const transactionScopes = ['open', 'hanging', 'all'] as const;

/**
 * The transaction list's URL state, read the same way by the page (a server component, which
 * prefetches) and by the list (a client component); hence the parsers from `nuqs/server`.
 */
export const transactionListParams = {
  q: parseAsString.withDefault(''),
  show: parseAsStringLiteral(transactionScopes).withDefault('open'),
  state: parseAsStringLiteral(transactionStates),
  sort: parseAsStringLiteral(transactionSortKeys).withDefault('age'),
  /** Age sorts oldest first by default; the other keys ascending. */
  desc: parseAsBoolean,
  page: parseAsInteger.withDefault(0),
  size: parseAsInteger.withDefault(50),
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
    search: params.q || undefined,
    state: params.state ?? undefined,
    openOnly: params.show === 'open' || undefined,
    hangingOnly: params.show === 'hanging' || undefined,
    sortBy: params.sort,
    descending: isDescending(params),
    offset: params.page * params.size,
    limit: params.size,
  };
}
