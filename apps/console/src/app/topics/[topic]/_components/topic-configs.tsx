'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Checkbox, DataTable, type DataTableColumn, Input, Toolbar } from '@weir/ui';
import { parseAsBoolean, parseAsString, useQueryStates } from 'nuqs';
import { useMemo, useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import type { TopicConfigs as TopicConfigsData } from '../../../../server/api/schemas/topics';
import { useTRPC } from '../../../../trpc/react';
import { AclDeniedNote, deniedByAcl } from '../../../_components/action-gate';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { ConfigEditDialog } from './config-edit-dialog';

type ConfigEntry = TopicConfigsData['configs'][number];

const configParams = {
  config: parseAsString.withDefault(''),
  overridden: parseAsBoolean.withDefault(false),
};

type TopicConfigsProps = {
  topic: string;
  /** The topic's `allowedActions.editConfigs`: when the principal's ACLs deny it, no entry offers Edit. */
  permission?: ActionPermissionView | undefined;
};

/**
 * The topic's configs with where each value comes from; editable entries open a diff preview. A
 * principal whose ACLs do not allow config changes sees the values without Edit buttons, and one
 * line saying why.
 */
export function TopicConfigs({ topic, permission }: TopicConfigsProps) {
  const trpc = useTRPC();
  const query = useQuery(trpc.topics.configs.queryOptions({ topic }));
  const [params, setParams] = useQueryStates(configParams);
  const [editing, setEditing] = useState<ConfigEntry | null>(null);
  const editable = !deniedByAcl(permission);

  const columns = useMemo<readonly DataTableColumn<ConfigEntry>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        cell: (entry) => (
          <code className="font-mono text-xs" title={entry.documentation ?? undefined}>
            {entry.name}
          </code>
        ),
      },
      {
        id: 'value',
        header: 'Value',
        className: 'max-w-md truncate',
        cell: (entry) =>
          entry.isSensitive ? (
            <span className="text-zinc-500 dark:text-zinc-400">hidden</span>
          ) : (
            <code className="font-mono text-xs" title={entry.value ?? 'null'}>
              {entry.value ?? 'null'}
            </code>
          ),
      },
      {
        id: 'source',
        header: 'Source',
        cell: (entry) => <Badge tone={entry.source === 'topic' ? 'accent' : 'neutral'}>{entry.source}</Badge>,
      },
      ...(editable ? [actionsColumn(setEditing)] : []),
    ],
    [editable],
  );

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <Toolbar label="Config filters">
          <Input
            type="search"
            aria-label="Filter configs"
            placeholder="Filter configs"
            value={params.config}
            onChange={(event) => void setParams({ config: event.target.value })}
          />
          <Checkbox
            label="Only values set on the topic"
            checked={params.overridden}
            onChange={(event) => void setParams({ overridden: event.target.checked })}
          />
        </Toolbar>
        {permission !== undefined && !editable ? <AclDeniedNote permission={permission} /> : null}
        <QueryAsOf query={query} />
      </div>
      <QueryState query={query} errorTitle="Could not read the topic's configuration">
        {(data) => (
          <DataTable
            label="Configuration"
            columns={columns}
            rows={data.configs.filter(
              (entry) =>
                entry.name.includes(params.config.trim()) && (!params.overridden || entry.source === 'topic'),
            )}
            rowKey={(entry) => entry.name}
          />
        )}
      </QueryState>
      {editing ? <ConfigEditDialog topic={topic} entry={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

/** The Edit column, for principals who may change the topic's configs. */
function actionsColumn(setEditing: (entry: ConfigEntry) => void): DataTableColumn<ConfigEntry> {
  return {
    id: 'actions',
    header: 'Actions',
    align: 'right',
    cell: (entry) =>
      entry.readOnly ? (
        <span className="text-xs text-zinc-400">read-only</span>
      ) : (
        <Button size="sm" variant="ghost" aria-label={`Edit ${entry.name}`} onClick={() => setEditing(entry)}>
          Edit
        </Button>
      ),
  };
}
