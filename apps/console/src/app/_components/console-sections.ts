/**
 * The console's sections in navigation order. Sections that are not built yet stay listed, so the
 * shape of the product is visible from the first release; they become links as they ship.
 */
export type ConsoleSection = {
  label: string;
  href: string;
  available: boolean;
};

export const consoleSections: readonly ConsoleSection[] = [
  { label: 'Overview', href: '/', available: true },
  { label: 'Topics', href: '/topics', available: false },
  { label: 'Consumer groups', href: '/groups', available: false },
  { label: 'Brokers', href: '/brokers', available: false },
  { label: 'Transactions', href: '/transactions', available: false },
  { label: 'ACLs', href: '/acls', available: false },
];
