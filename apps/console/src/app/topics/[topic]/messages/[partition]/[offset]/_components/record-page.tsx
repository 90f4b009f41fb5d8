'use client';

import { useQuery } from '@tanstack/react-query';
import { PageHeader, Panel } from '@weir/ui';
import Link from 'next/link';
import { parseAsStringLiteral, useQueryState } from 'nuqs';
import { useTRPC } from '../../../../../../../trpc/react';
import { QueryAsOf } from '../../../../../../_components/query-as-of';
import { QueryState } from '../../../../../../_components/query-state';
import { decodeModes } from '../../../_components/message-params';
import { RecordViewer } from '../../../_components/record-viewer';

type RecordPageProps = { topic: string; partition: number; offset: string };

/** One record read directly by its coordinates, with the same viewer as the browser. */
export function RecordPage({ topic, partition, offset }: RecordPageProps) {
  const trpc = useTRPC();
  const [decode, setDecode] = useQueryState('decode', parseAsStringLiteral(decodeModes).withDefault('auto'));
  const query = useQuery(
    trpc.messages.get.queryOptions({
      topic,
      partition,
      offset,
      decode: decode === 'schema' ? 'schema' : 'none',
      maxValueBytes: 16_384,
    }),
  );
  const base = `/topics/${encodeURIComponent(topic)}`;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={`Record ${partition}:${offset}`}
        eyebrow={
          <>
            <Link href="/topics" className="hover:underline">
              Topics
            </Link>{' '}
            /{' '}
            <Link href={base} className="hover:underline">
              {topic}
            </Link>{' '}
            /{' '}
            <Link href={`${base}/messages`} className="hover:underline">
              Messages
            </Link>
          </>
        }
      />
      <Panel title="Record" actions={<QueryAsOf query={query} />}>
        <QueryState query={query} errorTitle={`Could not read ${topic} ${partition}:${offset}`}>
          {(data) => (
            <RecordViewer
              topic={topic}
              record={data.record}
              mode={decode}
              onModeChange={(mode) => void setDecode(mode)}
            />
          )}
        </QueryState>
      </Panel>
    </div>
  );
}
