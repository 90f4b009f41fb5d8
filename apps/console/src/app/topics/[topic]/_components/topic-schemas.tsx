'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionButton, Badge, Button, Field, Input, Panel, Select, TextArea, Timestamp } from '@weir/ui';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import type { StoredSchemaView } from '../../../../server/api/schemas/topic-schemas';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';

type Side = 'key' | 'value';
type Format = 'avro' | 'protobuf';

/** Upload text past this is refused by the server too (MAX_SCHEMA_CHARS); said here before sending. */
const MAX_SCHEMA_CHARS = 262_144;

/**
 * The topic's Avro / Protobuf schemas: the ones uploaded (one per side, which the message browser's
 * "Schema" decoding uses) and a form to upload or replace one, typed or from a file.
 */
export function TopicSchemas({ topic, permission }: { topic: string; permission: ActionPermissionView }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.schemas.forTopic.queryOptions({ topic }));
  return (
    <div className="flex flex-col gap-4">
      <Panel title="Schemas">
        {query.isError ? (
          <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
            Could not read the schemas: {gatewayError(query.error).message}
          </p>
        ) : query.data === undefined ? (
          <p className="text-sm text-zinc-500">Loading…</p>
        ) : (
          <div className="flex flex-col gap-3">
            <SchemaSummary topic={topic} side="key" schema={query.data.key} permission={permission} />
            <SchemaSummary topic={topic} side="value" schema={query.data.value} permission={permission} />
          </div>
        )}
      </Panel>
      <Panel title="Upload a schema">
        <ActionGate permission={permission}>
          <UploadSchemaForm topic={topic} />
        </ActionGate>
      </Panel>
    </div>
  );
}

function SchemaSummary({
  topic,
  side,
  schema,
  permission,
}: {
  topic: string;
  side: Side;
  schema: StoredSchemaView | null;
  permission: ActionPermissionView;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.schemas.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.schemas.pathFilter()),
    }),
  );
  const label = side === 'key' ? 'Key schema' : 'Value schema';
  if (schema === null) {
    return (
      <section aria-label={label} className="text-sm">
        <h3 className="font-medium">{label}</h3>
        <p className="text-xs text-zinc-500">None: {side}s are shown as bytes, text or JSON.</p>
      </section>
    );
  }
  return (
    <section aria-label={label} className="flex flex-col gap-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{label}</h3>
        <Badge>{schema.format === 'avro' ? 'Avro' : 'Protobuf'}</Badge>
        {schema.messageType ? <Badge>{schema.messageType}</Badge> : null}
        <Badge>{schema.framing === 'confluent' ? 'Confluent wire format' : 'bare encoding'}</Badge>
        <span className="text-xs text-zinc-500">
          uploaded <Timestamp epochMs={schema.uploadedAtMs} />
        </span>
        <ActionButton
          size="sm"
          variant="danger"
          disabledReason={permission.reason}
          disabled={remove.isPending}
          onClick={() => remove.mutate({ topic, side })}
        >
          Delete {side} schema
        </ActionButton>
      </div>
      {remove.error ? (
        <p role="alert" className="text-rose-700 text-xs dark:text-rose-400">
          {gatewayError(remove.error).message}
        </p>
      ) : null}
      <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-950">
        {schema.schema}
      </pre>
    </section>
  );
}

function UploadSchemaForm({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [side, setSide] = useState<Side>('value');
  const [format, setFormat] = useState<Format>('avro');
  const [framing, setFraming] = useState<'none' | 'confluent'>('none');
  const [schema, setSchema] = useState('');
  const [messageType, setMessageType] = useState('');
  const [localError, setLocalError] = useState<string | undefined>();
  const upload = useMutation(
    trpc.schemas.put.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.schemas.pathFilter()),
    }),
  );
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    if (file.size > MAX_SCHEMA_CHARS) return setLocalError(`${file.name} is larger than 256 KiB.`);
    setLocalError(undefined);
    setSchema(await file.text());
    if (file.name.endsWith('.proto')) setFormat('protobuf');
    else if (file.name.endsWith('.avsc') || file.name.endsWith('.json')) setFormat('avro');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (schema.trim() === '') return setLocalError('Paste the schema or choose its file.');
    if (format === 'protobuf' && messageType.trim() === '') {
      return setLocalError('Name the message type of the records, e.g. shop.v1.Order.');
    }
    setLocalError(undefined);
    upload.mutate({
      topic,
      side,
      format,
      schema,
      framing,
      ...(format === 'protobuf' ? { messageType: messageType.trim() } : {}),
    });
  };
  const error = localError ?? (upload.error ? gatewayError(upload.error).message : undefined);
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-3">
        <Field label="Side">
          {(control) => (
            <Select
              {...control}
              value={side}
              onChange={(e) => setSide(e.target.value as Side)}
              options={[
                { value: 'value', label: 'Value' },
                { value: 'key', label: 'Key' },
              ]}
            />
          )}
        </Field>
        <Field label="Format">
          {(control) => (
            <Select
              {...control}
              value={format}
              onChange={(e) => setFormat(e.target.value as Format)}
              options={[
                { value: 'avro', label: 'Avro (JSON schema)' },
                { value: 'protobuf', label: 'Protobuf (.proto)' },
              ]}
            />
          )}
        </Field>
        <Field label="Framing">
          {(control) => (
            <Select
              {...control}
              value={framing}
              onChange={(e) => setFraming(e.target.value as 'none' | 'confluent')}
              options={[
                { value: 'none', label: 'Bare encoding' },
                { value: 'confluent', label: 'Confluent wire format' },
              ]}
            />
          )}
        </Field>
        {format === 'protobuf' ? (
          <Field label="Message type" className="flex flex-1 flex-col gap-1">
            {(control) => (
              <Input
                {...control}
                placeholder="shop.v1.Order"
                value={messageType}
                onChange={(e) => setMessageType(e.target.value)}
              />
            )}
          </Field>
        ) : null}
      </div>
      <Field label="Schema file">
        {(control) => (
          <input
            {...control}
            type="file"
            accept=".avsc,.json,.proto,text/plain,application/json"
            onChange={(e) => void readFile(e)}
            className="text-xs"
          />
        )}
      </Field>
      <Field label="Schema" error={error}>
        {(control) => (
          <TextArea {...control} rows={10} value={schema} onChange={(e) => setSchema(e.target.value)} />
        )}
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload schema'}
        </Button>
        {upload.isSuccess && !upload.isPending ? (
          <p role="status" className="text-emerald-700 text-sm dark:text-emerald-400">
            The {upload.data.schema.side} schema is stored; choose “Schema” in the message browser to decode.
          </p>
        ) : null}
      </div>
    </form>
  );
}
