import type { ReactNode } from 'react';

type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  /** Breadcrumb-like context above the title, e.g. a link back to the list. */
  eyebrow?: ReactNode;
  actions?: ReactNode;
};

/** The page's `h1` with an optional description and actions on the right. */
export function PageHeader({ title, description, eyebrow, actions }: PageHeaderProps) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        {eyebrow ? <div className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">{eyebrow}</div> : null}
        <h1 className="truncate font-semibold text-xl tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </div>
  );
}
