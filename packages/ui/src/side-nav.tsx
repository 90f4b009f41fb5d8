import type { ReactNode } from 'react';

type SideNavProps = {
  /** Names the landmark, so pages with several navigation regions stay distinguishable. */
  label: string;
  children: ReactNode;
};

/** The navigation column: a labelled `nav` landmark holding a list of `NavLink`s. */
export function SideNav({ label, children }: SideNavProps) {
  return (
    <nav aria-label={label}>
      <ul className="flex gap-1 overflow-x-auto md:flex-col md:overflow-visible">{children}</ul>
    </nav>
  );
}
