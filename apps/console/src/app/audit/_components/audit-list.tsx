'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS } from '@weir/protocol/names';
import {
  Button,
  DataTable,
  type DataTableColumn,
  EmptyState,
  Input,
  Select,
  StatusBadge,
  showBidiControls,
  Timestamp,
  Toolbar,
} from '@weir/ui';
import { useQueryStates } from 'nuqs';
import type { AuditEventView } from '../../../server/api/schemas/audit';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { auditListInput, auditListParams, auditOutcomes } from './audit-list-params';

/** The input summary in one line: `key=value` pairs, nested values as JSON. */
function inputSummary(input: Record<string, unknown>): string {
  return Object.entries(input)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
}

const columns: readonly DataTableColumn<AuditEventView>[] = [
  { id: 'time', header: 'Time', cell: (row) => <Timestamp epochMs={row.atMs} /> },
  { id: 'principal', header: 'Principal', cell: (row) => showBidiControls(row.principal) },
  { id: 'action', header: 'Action', cell: (row) => row.action },
  {
    id: 'resource',
    header: 'Resource',
    className: 'max-w-64 truncate',
    cell: (row) => (
      <span title={`${row.resourceType} ${row.resourceName}`}>
        <span className="text-zinc-500 dark:text-zinc-400">{row.resourceType} </span>
        {showBidiControls(row.resourceName)}
      </span>
    ),
  },
  {
    id: 'outcome',
    header: 'Outcome',
    cell: (row) => (
      <span title={row.outcomeMessage}>
        <StatusBadge tone={row.ok ? 'ok' : 'error'}>{row.ok ? 'ok' : row.outcomeName}</StatusBadge>
      </span>
    ),
  },
  {
    id: 'input',
    header: 'Input',
    className: 'max-w-80 truncate font-mono text-xs',
    cell: (row) => <span title={JSON.stringify(row.input, null, 2)}>{inputSummary(row.input)}</span>,
  },
  {
    id: 'client',
    header: 'Client',
    className: 'text-xs',
    cell: (row) => (
      <span title={`broker ${row.brokerId}, ${row.listener} listener`}>
        {showBidiControls(row.clientId)} @ {row.clientHost}
      </span>
    ),
  },
];

/** A `datetime-local` value in the browser's zone, for an epoch time. */
function localInputValue(epochMs: number | null): string {
  if (epochMs === null) return '';
  const date = new Date(epochMs);
  return new Date(epochMs - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The epoch time of a `datetime-local` value; null when empty or not a time. */
function epochOf(value: string): number | null {
  const epochMs = new Date(value).getTime();
  return value === '' || Number.isNaN(epochMs) ? null : epochMs;
}

/** The audit log, newest first; a filter change goes back to the newest page. */
export function AuditList() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(auditListParams, { history: 'push' });
  const filter = (values: Partial<typeof params>, history: 'push' | 'replace' = 'push') =>
    void setParams({ ...values, cursor: null }, { history });
  const query = useQuery({
    ...trpc.audit.list.queryOptions(auditListInput(params)),
    placeholderData: keepPreviousData,
    refetchInterval: params.cursor === null ? 5_000 : false,
  });

  return (
    <>
      <Toolbar label="Audit filters">
        <Input
          type="search"
          aria-label="Principal"
          placeholder="Principal (part of)"
          className="w-48"
          value={params.principal}
          onChange={(event) => filter({ principal: event.target.value }, 'replace')}
        />
        <Select
          aria-label="Action"
          value={params.action ?? ''}
          onChange={(event) =>
            filter({ action: AUDIT_ACTIONS.find((action) => action === event.target.value) ?? null })
          }
          options={[
            { value: '', label: 'Any action' },
            ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action })),
          ]}
        />
        <Input
          type="search"
          aria-label="Resource"
          placeholder="Resource name (part of)"
          className="w-48"
          value={params.resource}
          onChange={(event) => filter({ resource: event.target.value }, 'replace')}
        />
        <Select
          aria-label="Outcome"
          value={params.outcome ?? ''}
          onChange={(event) =>
            filter({ outcome: auditOutcomes.find((outcome) => outcome === event.target.value) ?? null })
          }
          options={[
            { value: '', label: 'Any outcome' },
            { value: 'ok', label: 'Succeeded' },
            { value: 'failed', label: 'Failed or denied' },
          ]}
        />
        <Input
          type="datetime-local"
          aria-label="Since"
          value={localInputValue(params.since)}
          onChange={(event) => filter({ since: epochOf(event.target.value) })}
        />
        <Input
          type="datetime-local"
          aria-label="Until"
          value={localInputValue(params.until)}
          onChange={(event) => filter({ until: epochOf(event.target.value) })}
        />
      </Toolbar>
      <ListPanel title="Audit events" query={query} errorTitle="Could not read the audit log">
        {(list) => (
          <>
            <DataTable
              label="Audit events"
              columns={columns}
              rows={list.events}
              rowKey={(row) => row.id}
              empty={
                <EmptyState title="No audit events">
                  {params.cursor === null
                    ? 'Administrative actions appear here once a broker handles one.'
                    : 'No older events match.'}
                </EmptyState>
              }
            />
            <div className="flex items-center justify-end gap-2">
              {params.cursor !== null && (
                <Button size="sm" onClick={() => void setParams({ cursor: null })}>
                  Newest
                </Button>
              )}
              <Button
                size="sm"
                disabled={list.nextCursor === null}
                onClick={() => void setParams({ cursor: list.nextCursor })}
              >
                Older events
              </Button>
            </div>
          </>
        )}
      </ListPanel>
    </>
  );
}
