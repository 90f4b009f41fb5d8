'use client';

import {
  Button,
  Checkbox,
  Field,
  Input,
  parseDateTimeInput,
  Select,
  toDateTimeInput,
  useTimeZone,
} from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { searchInputSchema } from '../../../../../server/api/schemas/messages';
import { type FieldErrors, topLevelFieldErrors, zodFieldErrors } from '../../../../_components/field-errors';
import { type FilterDraft, FilterEditor, formatFilter, parseFilter } from './filter-editor';
import { type MessageParams, parsePartitionList, startModes, toSearchInput } from './message-params';

const startLabels: Record<(typeof startModes)[number], string> = {
  beginning: 'Beginning',
  end: 'End (new records only)',
  offset: 'Offset',
  timestamp: 'Timestamp',
  newest: 'Newest N',
};

const pageSizes = [20, 50, 100, 200, 500].map((size) => ({ value: String(size), label: String(size) }));

type SearchFormProps = {
  topic: string;
  params: MessageParams;
  /** Called with the URL state of a new search (cursor stack cleared). */
  onSearch: (next: Partial<MessageParams>) => void;
};

/**
 * The search's inputs, edited as a draft and written to the URL on submit. The draft is checked
 * with the gateway's own input schema first, so mistakes show next to their field.
 */
export function SearchForm({ topic, params, onSearch }: SearchFormProps) {
  const { mode } = useTimeZone();
  const [start, setStart] = useState(params.start);
  const [offset, setOffset] = useState(params.offset);
  const [time, setTime] = useState(params.ts === null ? '' : toDateTimeInput(params.ts, mode));
  const [newest, setNewest] = useState(String(params.n));
  const [partitions, setPartitions] = useState(params.p);
  const [filters, setFilters] = useState<FilterDraft[]>(params.f.map(parseFilter));
  const [all, setAll] = useState(params.all);
  const [size, setSize] = useState(String(params.size));
  const hasExactKey = filters.some(
    (filter) => filter.field === 'key' && filter.operator === 'equals' && filter.value !== '',
  );
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields: FieldErrors = {};
    const ts = start === 'timestamp' ? parseDateTimeInput(time, mode) : undefined;
    if (start === 'timestamp' && ts === undefined) fields.startTimestampMs = 'Pick a date and time.';
    if (start === 'offset' && !/^\d{1,19}$/.test(offset.trim()))
      fields.startOffset = 'Enter an offset (a whole number).';
    if (parsePartitionList(partitions) === null)
      fields.partitions = 'Partition numbers separated by commas, e.g. 0,2.';
    const next: MessageParams = {
      ...params,
      start,
      offset: offset.trim(),
      ts: ts ?? null,
      n: Number(newest),
      p: partitions.trim(),
      f: filters.filter((filter) => filter.value !== '').map(formatFilter),
      all: hasExactKey && all,
      size: Number(size),
      cursor: '',
      prev: [],
      open: '',
      run: params.run + 1,
    };
    const parsed = searchInputSchema.safeParse(toSearchInput(topic, next));
    if (!parsed.success) Object.assign(fields, topLevelFieldErrors(zodFieldErrors(parsed.error)), fields);
    setErrors(fields);
    if (Object.keys(fields).length === 0) onSearch(next);
  };

  return (
    <form noValidate onSubmit={submit} aria-label="Message search" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start gap-3">
        <Field label="Start at">
          {(control) => (
            <Select
              {...control}
              value={start}
              onChange={(event) => setStart(event.target.value as MessageParams['start'])}
              options={startModes.map((value) => ({ value, label: startLabels[value] }))}
            />
          )}
        </Field>
        {start === 'offset' ? (
          <Field label="Start offset" error={errors.startOffset}>
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={offset}
                onChange={(e) => setOffset(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {start === 'timestamp' ? (
          <Field
            label={`Start time (${mode === 'utc' ? 'UTC' : 'local time'})`}
            error={errors.startTimestampMs}
          >
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                step="1"
                value={time}
                onChange={(e) => setTime(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        {start === 'newest' ? (
          <Field label="Newest records" error={errors.newestCount}>
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={newest}
                onChange={(e) => setNewest(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        <Field label="Partitions" error={errors.partitions} hint="Empty: all partitions.">
          {(control) => (
            <Input
              {...control}
              placeholder="e.g. 0,2"
              value={partitions}
              onChange={(e) => setPartitions(e.target.value)}
            />
          )}
        </Field>
        <Field label="Page size" error={errors.pageSize}>
          {(control) => (
            <Select {...control} value={size} onChange={(e) => setSize(e.target.value)} options={pageSizes} />
          )}
        </Field>
      </div>
      <FilterEditor filters={filters} onChange={setFilters} />
      {errors.filters ? <p className="text-rose-700 text-xs dark:text-rose-400">{errors.filters}</p> : null}
      {hasExactKey ? (
        // Only a "key equals" filter narrows the search, so the override appears with one.
        <Checkbox
          label="Search all partitions (else only the one the key hashes to)"
          checked={all}
          onChange={(event) => setAll(event.target.checked)}
        />
      ) : null}
      <div>
        <Button type="submit" variant="primary">
          Search
        </Button>
      </div>
    </form>
  );
}
