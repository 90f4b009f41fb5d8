'use client';

import { Button, Input } from '@weir/ui';

export type HeaderDraft = { key: string; value: string };

type HeaderEditorProps = {
  headers: readonly HeaderDraft[];
  onChange: (headers: HeaderDraft[]) => void;
  errors: Record<string, string>;
};

/**
 * Headers as an ordered list, not a map: a key may repeat and order is kept, as Kafka stores them.
 * Rows can be moved, because consumers that read "the last value of a key" depend on order.
 */
export function HeaderEditor({ headers, onChange, errors }: HeaderEditorProps) {
  const update = (index: number, patch: Partial<HeaderDraft>) =>
    onChange(headers.map((header, at) => (at === index ? { ...header, ...patch } : header)));
  const move = (index: number, by: number) => {
    const next = [...headers];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  return (
    <fieldset className="m-0 flex min-w-0 flex-col gap-1.5 border-0 p-0">
      <legend className="mb-1 font-medium text-xs text-zinc-700 dark:text-zinc-300">
        Headers (in order)
      </legend>
      {headers.map((header, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: header keys may repeat; the position is the identity.
        <div key={index} className="flex flex-wrap items-center gap-1.5">
          <Input
            aria-label={`Header ${index + 1} key`}
            aria-invalid={errors[`headers.${index}.key`] ? true : undefined}
            title={errors[`headers.${index}.key`]}
            placeholder="key"
            className="w-48 font-mono"
            value={header.key}
            onChange={(event) => update(index, { key: event.target.value })}
          />
          <Input
            aria-label={`Header ${index + 1} value`}
            placeholder="value"
            className="w-72 font-mono"
            value={header.value}
            onChange={(event) => update(index, { value: event.target.value })}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move header ${index + 1} up`}
            disabled={index === 0}
            onClick={() => move(index, -1)}
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move header ${index + 1} down`}
            disabled={index === headers.length - 1}
            onClick={() => move(index, 1)}
          >
            ↓
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove header ${index + 1}`}
            onClick={() => onChange(headers.filter((_, at) => at !== index))}
          >
            Remove
          </Button>
          {errors[`headers.${index}.key`] ? (
            <span className="text-rose-700 text-xs dark:text-rose-400">{errors[`headers.${index}.key`]}</span>
          ) : null}
        </div>
      ))}
      <div>
        <Button size="sm" variant="ghost" onClick={() => onChange([...headers, { key: '', value: '' }])}>
          + Add header
        </Button>
      </div>
    </fieldset>
  );
}
