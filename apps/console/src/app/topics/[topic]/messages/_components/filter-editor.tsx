'use client';

import type { RecordFilterField, RecordFilterOperator } from '@weir/protocol';
import { Button, Input, Select } from '@weir/ui';
import { formatFilterText, parseFilterText } from '../../../../../server/api/schemas/record-filter-syntax';

/** A filter row being edited; `path` is used by the JSON fields only. */
export type FilterDraft = { field: string; operator: string; value: string; path: string };

const fieldOptions = [
  { value: 'key', label: 'Key' },
  { value: 'value', label: 'Value' },
  { value: 'valueJson', label: 'Value JSON path' },
  { value: 'keyJson', label: 'Key JSON path' },
  { value: 'headerKey', label: 'Header key' },
  { value: 'headerValue', label: 'Header value' },
];

const isJsonField = (field: string) => field === 'keyJson' || field === 'valueJson';
const operatorOptions = [
  { value: 'contains', label: 'contains' },
  { value: 'notContains', label: 'does not contain' },
  { value: 'equals', label: 'equals' },
];

/** `field:operator:value`, the gateway's filter syntax (record-filter-syntax.ts). */
export function parseFilter(text: string): FilterDraft {
  try {
    const parts = parseFilterText(text);
    return { field: parts.field, operator: parts.operator, value: parts.value, path: parts.path ?? '' };
  } catch {
    // A hand-edited URL: keep the text so the user sees it, and the server names what is wrong.
    return { field: 'value', operator: 'contains', value: text, path: '' };
  }
}

export function formatFilter(filter: FilterDraft): string {
  return formatFilterText({
    field: filter.field as RecordFilterField,
    operator: filter.operator as RecordFilterOperator,
    value: filter.value,
    ...(isJsonField(filter.field) ? { path: filter.path } : {}),
  });
}

type FilterEditorProps = { filters: readonly FilterDraft[]; onChange: (filters: FilterDraft[]) => void };

/**
 * Server-side filters: the broker evaluates them while scanning, so only matches travel. All must
 * hold (AND). Each row is labelled by its position so tests and screen readers can tell them apart.
 */
export function FilterEditor({ filters, onChange }: FilterEditorProps) {
  const update = (index: number, patch: Partial<FilterDraft>) =>
    onChange(filters.map((filter, at) => (at === index ? { ...filter, ...patch } : filter)));
  return (
    <fieldset className="m-0 flex min-w-0 flex-col gap-1.5 border-0 p-0">
      <legend className="mb-1 font-medium text-xs text-zinc-700 dark:text-zinc-300">
        Filters (all must match)
      </legend>
      {filters.map((filter, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity besides their position.
        <div key={index} className="flex flex-wrap items-center gap-1.5">
          <Select
            aria-label={`Filter ${index + 1} field`}
            options={fieldOptions}
            value={filter.field}
            onChange={(event) => update(index, { field: event.target.value })}
          />
          {isJsonField(filter.field) ? (
            <Input
              aria-label={`Filter ${index + 1} path`}
              className="w-40 font-mono"
              placeholder="user.id"
              value={filter.path}
              onChange={(event) => update(index, { path: event.target.value })}
            />
          ) : null}
          <Select
            aria-label={`Filter ${index + 1} operator`}
            options={operatorOptions}
            value={filter.operator}
            onChange={(event) => update(index, { operator: event.target.value })}
          />
          <Input
            aria-label={`Filter ${index + 1} text`}
            className="w-56"
            value={filter.value}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove filter ${index + 1}`}
            onClick={() => onChange(filters.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
        </div>
      ))}
      {filters.length < 8 ? (
        <div>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onChange([...filters, { field: 'key', operator: 'equals', value: '', path: '' }])}
          >
            + Add filter
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
