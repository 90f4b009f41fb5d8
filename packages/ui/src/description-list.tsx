import type { ReactNode } from 'react';

export type DescriptionItem = { term: string; detail: ReactNode };

/** Label/value pairs in a compact grid, e.g. broker or group facts. */
export function DescriptionList({ items }: { items: readonly DescriptionItem[] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1.5 text-sm">
      {items.map((item) => (
        <div key={item.term} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{item.term}</dt>
          <dd className="min-w-0 break-words">{item.detail}</dd>
        </div>
      ))}
    </dl>
  );
}
