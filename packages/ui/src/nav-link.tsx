import type { ComponentType, ReactNode } from 'react';

/** The props NavLink passes to a custom link component (Next's `Link` fits). */
export type NavAnchorProps = {
  href: string;
  className: string;
  'aria-current': 'page' | undefined;
  children: ReactNode;
};

type NavLinkProps = {
  href: string;
  label: string;
  icon?: ReactNode;
  /** The link for the page being shown; it is marked with `aria-current`. */
  active?: boolean;
  /**
   * A section that is planned but not built, e.g. "coming with ACLs": shown so users see what is
   * coming, but not a link, so nobody lands on a 404.
   */
  comingSoon?: string | undefined;
  /** Client-side routing from the app; a plain anchor keeps this package free of Next.js. */
  linkComponent?: ComponentType<NavAnchorProps>;
};

const itemClassName = 'flex items-center gap-2.5 whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm';

function PlainAnchor(props: NavAnchorProps) {
  return <a {...props} />;
}

/** One entry of the side navigation. */
export function NavLink({ href, label, icon, active = false, comingSoon, linkComponent }: NavLinkProps) {
  if (comingSoon) {
    return (
      <li>
        <span
          aria-disabled="true"
          title={comingSoon}
          className={`${itemClassName} cursor-default text-zinc-400 dark:text-zinc-500`}
        >
          {icon}
          <span className="flex-1">{label}</span>
          <span className="rounded-full bg-zinc-100 px-1.5 py-px font-medium text-[10px] text-zinc-500 uppercase tracking-wide dark:bg-zinc-800 dark:text-zinc-400">
            Soon
          </span>
        </span>
      </li>
    );
  }
  const Anchor = linkComponent ?? PlainAnchor;
  const stateClassName = active
    ? 'bg-teal-50 font-medium text-teal-800 dark:bg-teal-500/10 dark:text-teal-300'
    : 'text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100';
  return (
    <li>
      <Anchor
        href={href}
        aria-current={active ? 'page' : undefined}
        className={`${itemClassName} ${stateClassName} focus-visible:outline-2 focus-visible:outline-teal-600`}
      >
        {icon}
        <span className="flex-1">{label}</span>
      </Anchor>
    </li>
  );
}
