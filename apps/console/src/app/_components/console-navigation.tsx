'use client';

import { type NavAnchorProps, NavLink, SideNav } from '@weir/ui';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { activeSectionHref, consoleSections } from './console-sections';

/** Next's Link with the props NavLink passes, so navigation stays client-side. */
function NextAnchor({ href, className, children, ...rest }: NavAnchorProps) {
  return (
    <Link href={href} className={className} aria-current={rest['aria-current']}>
      {children}
    </Link>
  );
}

/** The side navigation; the entry for the current path is marked with aria-current. */
export function ConsoleNavigation() {
  const active = activeSectionHref(usePathname());
  return (
    <SideNav label="Console sections">
      {consoleSections.map((section) => (
        <NavLink
          key={section.href}
          href={section.href}
          label={section.label}
          active={section.href === active}
          comingSoon={section.comingWith}
          linkComponent={NextAnchor}
        />
      ))}
    </SideNav>
  );
}
