'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { COMPRESSION_TYPES, type CompressionType } from '@weir/protocol/names';
import { Button, Checkbox, Field, PageHeader, Panel, Select, TextArea } from '@weir/ui';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { type ProduceInput, produceInputSchema } from '../../../../../server/api/schemas/messages';
import { gatewayError } from '../../../../../trpc/errors';
import { useTRPC } from '../../../../../trpc/react';
import { type FieldErrors, zodFieldErrors } from '../../../../_components/field-errors';
import { type HeaderDraft, HeaderEditor } from './header-editor';

const encodings = [
  { value: 'utf8', label: 'UTF-8 text' },
  { value: 'base64', label: 'Base64 bytes' },
];

type Draft = {
  partition: string;
  compression: CompressionType;
  key: string;
  nullKey: boolean;
  keyEncoding: 'utf8' | 'base64';
  value: string;
  tombstone: boolean;
  valueEncoding: 'utf8' | 'base64';
  headers: HeaderDraft[];
};

const emptyDraft: Draft = {
  partition: '',
  compression: 'none',
  key: '',
  nullKey: false,
  keyEncoding: 'utf8',
  value: '',
  tombstone: false,
  valueEncoding: 'utf8',
  headers: [],
};

function toInput(topic: string, draft: Draft): ProduceInput {
  return {
    topic,
    partition: draft.partition === '' ? undefined : Number(draft.partition),
    key: draft.nullKey ? null : { encoding: draft.keyEncoding, data: draft.key },
    value: draft.tombstone ? null : { encoding: draft.valueEncoding, data: draft.value },
    headers: draft.headers.map((header) => ({
      key: header.key,
      value: { encoding: 'utf8', data: header.value },
    })),
    compression: draft.compression,
  };
}

/** The produce form; the result links to the record's permalink. */
export function ProduceForm({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.topics.get.queryOptions({ topic }));
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const produce = useMutation(
    trpc.messages.produce.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.topics.pathFilter()),
      onError: (error) => {
        const info = gatewayError(error);
        setErrors(Object.keys(info.fieldErrors).length > 0 ? info.fieldErrors : { form: info.message });
      },
    }),
  );
  const set = <Name extends keyof Draft>(name: Name, value: Draft[Name]) =>
    setDraft((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = produceInputSchema.safeParse(toInput(topic, draft));
    const fields = parsed.success ? {} : zodFieldErrors(parsed.error);
    draft.headers.forEach((header, index) => {
      if (header.key === '') fields[`headers.${index}.key`] ??= 'A header needs a key.';
    });
    setErrors(fields);
    if (parsed.success && Object.keys(fields).length === 0) produce.mutate(parsed.data);
  };

  const partitionCount = detail.data?.partitionCount ?? 0;
  const base = `/topics/${encodeURIComponent(topic)}`;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Produce a record"
        eyebrow={
          <>
            <Link href="/topics" className="hover:underline">
              Topics
            </Link>{' '}
            /{' '}
            <Link href={base} className="hover:underline">
              {topic}
            </Link>
          </>
        }
      />
      <Panel title="Record">
        <form noValidate onSubmit={submit} aria-label="Produce" className="flex max-w-4xl flex-col gap-4">
          <div className="flex flex-wrap gap-3">
            <Field
              label="Partition"
              error={errors.partition}
              hint="Automatic: by the key's hash, or sticky for no key."
            >
              {(control) => (
                <Select
                  {...control}
                  value={draft.partition}
                  onChange={(event) => set('partition', event.target.value)}
                  options={[
                    { value: '', label: 'Automatic' },
                    ...Array.from({ length: partitionCount }, (_, partition) => ({
                      value: String(partition),
                      label: String(partition),
                    })),
                  ]}
                />
              )}
            </Field>
            <Field label="Compression" error={errors.compression}>
              {(control) => (
                <Select
                  {...control}
                  value={draft.compression}
                  onChange={(event) => set('compression', event.target.value as Draft['compression'])}
                  options={COMPRESSION_TYPES.map((value) => ({ value, label: value }))}
                />
              )}
            </Field>
          </div>
          <PayloadField
            label="Key"
            text={draft.key}
            onText={(text) => set('key', text)}
            encoding={draft.keyEncoding}
            onEncoding={(encoding) => set('keyEncoding', encoding)}
            isNull={draft.nullKey}
            onNull={(isNull) => set('nullKey', isNull)}
            nullLabel="No key (null)"
            error={errors['key.data'] ?? errors.key}
            rows={1}
          />
          <PayloadField
            label="Value"
            text={draft.value}
            onText={(text) => set('value', text)}
            encoding={draft.valueEncoding}
            onEncoding={(encoding) => set('valueEncoding', encoding)}
            isNull={draft.tombstone}
            onNull={(isNull) => set('tombstone', isNull)}
            nullLabel="Tombstone (null value)"
            error={errors['value.data'] ?? errors.value}
            rows={6}
          />
          <HeaderEditor
            headers={draft.headers}
            onChange={(headers) => set('headers', headers)}
            errors={errors}
          />
          {errors.form ? (
            <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
              {errors.form}
            </p>
          ) : null}
          <div className="flex items-center gap-3">
            <Button type="submit" variant="primary" disabled={produce.isPending}>
              {produce.isPending ? 'Producing…' : 'Produce'}
            </Button>
            {produce.data ? (
              <p role="status" className="text-emerald-700 text-sm dark:text-emerald-400">
                Produced to partition {produce.data.partition} at offset {produce.data.offset}.{' '}
                <Link
                  className="underline"
                  href={`${base}/messages/${produce.data.partition}/${produce.data.offset}`}
                >
                  View record
                </Link>
              </p>
            ) : null}
          </div>
        </form>
      </Panel>
    </div>
  );
}

type PayloadFieldProps = {
  label: string;
  text: string;
  onText: (text: string) => void;
  encoding: 'utf8' | 'base64';
  onEncoding: (encoding: 'utf8' | 'base64') => void;
  isNull: boolean;
  onNull: (isNull: boolean) => void;
  nullLabel: string;
  error: string | undefined;
  rows: number;
};

function PayloadField(props: PayloadFieldProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <Field label={props.label} error={props.error}>
        {(control) => (
          <TextArea
            {...control}
            rows={props.rows}
            disabled={props.isNull}
            value={props.text}
            onChange={(event) => props.onText(event.target.value)}
          />
        )}
      </Field>
      <div className="flex items-center gap-4">
        <Checkbox
          label={props.nullLabel}
          checked={props.isNull}
          onChange={(event) => props.onNull(event.target.checked)}
        />
        <Select
          aria-label={`${props.label} encoding`}
          value={props.encoding}
          onChange={(event) => props.onEncoding(event.target.value as 'utf8' | 'base64')}
          options={encodings}
        />
      </div>
    </div>
  );
}
