/**
 * The console's sections in navigation order. Sections that later issues build stay listed with
 * what they are waiting for, so the shape of the product is visible from the first release.
 */
export type ConsoleSection = {
  label: string;
  href: string;
  /** Set for sections not built yet: the hint shown instead of a link. */
  comingWith?: string;
};

export const consoleSections: readonly ConsoleSection[] = [
  { label: 'Overview', href: '/' },
  { label: 'Topics', href: '/topics' },
  { label: 'Consumer groups', href: '/groups' },
  { label: 'Brokers', href: '/brokers' },
  { label: 'Replication', href: '/replication' },
  { label: 'Reassignments', href: '/reassignments' },
  { label: 'Transactions', href: '/transactions' },
  { label: 'ACLs', href: '/acls' },
  { label: 'Users', href: '/users' },
  { label: 'Audit log', href: '/audit' },
];

/** The section a path belongs to: the longest matching prefix, so /topics/x highlights Topics. */
export function activeSectionHref(pathname: string): string {
  let best = '/';
  for (const section of consoleSections) {
    const matches = pathname === section.href || pathname.startsWith(`${section.href}/`);
    if (section.href !== '/' && matches && section.href.length > best.length) best = section.href;
  }
  return best;
}
