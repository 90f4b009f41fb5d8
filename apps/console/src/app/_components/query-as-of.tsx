'use client';

import { AsOfIndicator } from '@weir/ui';

type QueryAsOfProps = {
  /** A read whose answer carries `asOfMs`, as every gateway answer about broker state does. */
  query: { data: { asOfMs: number } | undefined; isFetching: boolean; refetch: () => unknown };
};

/** When the query's answer was read, with a refresh button that reads it again. */
export function QueryAsOf({ query }: QueryAsOfProps) {
  return (
    <AsOfIndicator
      asOfMs={query.data?.asOfMs}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching}
    />
  );
}
