'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import { Button, ErrorState, LoadingState } from '@weir/ui';
import type { ReactNode } from 'react';
import { gatewayError } from '../../trpc/errors';

type QueryStateProps<Data> = {
  query: UseQueryResult<Data, unknown>;
  /** Names what failed, e.g. "Could not read the topic list". */
  errorTitle: string;
  children: (data: Data) => ReactNode;
};

/**
 * The three states of a read: loading, failed (with the server's message and a retry), and data.
 * Data already shown stays visible while a refresh runs or fails, with the error above it.
 */
export function QueryState<Data>({ query, errorTitle, children }: QueryStateProps<Data>) {
  const error = query.error ? (
    <ErrorState
      title={errorTitle}
      message={gatewayError(query.error).message}
      action={
        <Button size="sm" onClick={() => void query.refetch()}>
          Retry
        </Button>
      }
    />
  ) : null;
  if (query.data === undefined) return error ?? <LoadingState />;
  return (
    <>
      {error}
      {children(query.data)}
    </>
  );
}
