'use client';

import { useQuery } from '@tanstack/react-query';
import { Badge, CopyButton, Select, showBidiControls, Timestamp } from '@weir/ui';
import Link from 'next/link';
import { useState } from 'react';
import type { MessageRow } from '../../../../../server/api/schemas/messages';
import { gatewayError } from '../../../../../trpc/errors';
import { useTRPC } from '../../../../../trpc/react';
import { type DecodeMode, previewPayload } from './decode-payload';
import { decodeModes } from './message-params';
import { RecordKindBadge, TRANSACTION_STATUS_TEXT } from './message-table';
import { PayloadView } from './payload-view';
import { recordAsJson } from './record-json';

type RecordViewerProps = {
  topic: string;
  record: MessageRow;
  mode: DecodeMode;
  onModeChange: (mode: DecodeMode) => void;
};

/**
 * The largest payload "load anyway" asks for: the broker's scan cuts payloads at 1 MiB, and asking
 * for more is refused, so larger values stay cut (the viewer says so).
 */
const fullRecordBytes = 1024 * 1024;

const DECODE_LABELS: Record<DecodeMode, string> = {
  auto: 'Auto',
  text: 'Text',
  json: 'JSON',
  hex: 'Hex',
  schema: 'Schema',
};

/** One record in full: metadata, key, value and headers in order, with copy and a permalink. */
export function RecordViewer({ topic, record, mode, onModeChange }: RecordViewerProps) {
  const trpc = useTRPC();
  const [loadFull, setLoadFull] = useState(false);
  const full = useQuery({
    ...trpc.messages.get.queryOptions({
      topic,
      partition: record.partition,
      offset: record.offset,
      decode: mode === 'schema' ? 'schema' : 'none',
      maxValueBytes: fullRecordBytes,
    }),
    enabled: loadFull,
  });
  // "Schema" is offered only when the topic has one (or is chosen already, e.g. from a link).
  const schemas = useQuery(trpc.schemas.forTopic.queryOptions({ topic }));
  const hasSchema = schemas.data !== undefined && (schemas.data.key !== null || schemas.data.value !== null);
  const modes = decodeModes.filter((value) => value !== 'schema' || hasSchema || mode === 'schema');
  const shown = full.data?.record ?? record;
  const loadAnyway = full.data
    ? undefined
    : () => {
        // After a failure the query is enabled already: only a refetch asks the server again.
        if (full.isError) void full.refetch();
        else setLoadFull(true);
      };
  const loadError = full.error ? gatewayError(full.error).message : undefined;
  const permalink = `/topics/${encodeURIComponent(topic)}/messages/${record.partition}/${record.offset}`;

  return (
    <article aria-label={`Record ${record.partition}:${record.offset}`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
        <span>
          Partition <strong>{record.partition}</strong> · offset <strong>{record.offset}</strong>
        </span>
        <Timestamp epochMs={record.timestampMs} />
        <Badge>{record.timestampType}</Badge>
        <Badge>{record.compression}</Badge>
        <RecordKindBadge row={record} />
        {record.transactional || record.control ? (
          <span className="text-zinc-500 dark:text-zinc-400">
            producer {record.producerId}
            {record.producerEpoch >= 0 ? `, epoch ${record.producerEpoch}` : ''}
          </span>
        ) : null}
        <span className="ml-auto inline-flex items-center gap-1">
          <Select
            aria-label="Decode as"
            value={mode}
            onChange={(event) => onModeChange(event.target.value as DecodeMode)}
            options={modes.map((value) => ({ value, label: DECODE_LABELS[value] }))}
          />
          <CopyButton label="Copy as JSON" text={() => recordAsJson(topic, shown)} />
          <Link href={permalink} className="px-2 text-teal-700 text-xs hover:underline dark:text-teal-400">
            Permalink
          </Link>
        </span>
      </div>
      {record.transactional ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-300" data-testid="record-transaction">
          Transaction: <strong>{record.transaction}</strong>. {TRANSACTION_STATUS_TEXT[record.transaction]}
        </p>
      ) : null}
      <PayloadView
        label="Key"
        payload={shown.key}
        mode={mode}
        onLoadAnyway={loadAnyway}
        loading={full.isFetching}
        loadError={loadError}
      />
      <PayloadView
        label="Value"
        payload={shown.value}
        mode={mode}
        onLoadAnyway={loadAnyway}
        loading={full.isFetching}
        loadError={loadError}
      />
      <div>
        <h3 className="mb-1 font-medium text-xs text-zinc-500 dark:text-zinc-400">
          Headers ({shown.headers.length})
        </h3>
        {shown.headers.length === 0 ? (
          <p className="text-xs text-zinc-500">none</p>
        ) : (
          <table aria-label="Headers" className="text-xs">
            <tbody>
              {shown.headers.map((header, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: header keys may repeat; order is the identity.
                <tr key={index}>
                  <th scope="row" className="py-0.5 pr-4 text-left font-mono font-medium">
                    {showBidiControls(header.key)}
                  </th>
                  <td className="font-mono">{previewPayload(header.value, 200)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </article>
  );
}
