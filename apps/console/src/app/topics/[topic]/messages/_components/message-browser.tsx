'use client';

import { PageHeader, Panel } from '@weir/ui';
import Link from 'next/link';
import { useQueryStates } from 'nuqs';
import { isLiveTail, messageParams, toSearchInput, toTailInput } from './message-params';
import { SearchForm } from './search-form';
import { SearchRun } from './search-run';
import { TailRun } from './tail-run';

/**
 * The browser's shell. The form edits a draft; the URL holds the search that runs. Each distinct
 * search (including its page cursor and the run counter) mounts a fresh SearchRun, so rows from
 * one search never mix with another's.
 */
export function MessageBrowser({ topic }: { topic: string }) {
  const [params, setParams] = useQueryStates(messageParams);
  const input = toSearchInput(topic, params);
  const runKey = JSON.stringify([input, params.run]);
  const formKey = JSON.stringify([
    params.start,
    params.offset,
    params.ts,
    params.n,
    params.p,
    params.f,
    params.all,
    params.size,
    params.run,
  ]);
  const base = `/topics/${encodeURIComponent(topic)}`;
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Messages"
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
        actions={
          <Link
            href={`${base}/produce`}
            className="inline-flex h-8 items-center rounded-md border border-zinc-300 bg-white px-3 font-medium text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
          >
            Produce
          </Link>
        }
      />
      <Panel title="Search">
        <SearchForm key={formKey} topic={topic} params={params} onSearch={(next) => void setParams(next)} />
      </Panel>
      {isLiveTail(params) ? (
        <TailRun
          key={runKey}
          topic={topic}
          input={toTailInput(topic, params)}
          params={params}
          setParams={(next) => void setParams(next)}
        />
      ) : (
        <SearchRun
          key={runKey}
          topic={topic}
          input={input}
          params={params}
          setParams={(next) => void setParams(next)}
        />
      )}
    </div>
  );
}
