import Link from 'next/link';
import type { ReactNode } from 'react';

/** A list row's name, linking to the page of the thing it names (a topic, a group, …). */
export function RowLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="font-medium text-teal-700 hover:underline dark:text-teal-400">
      {children}
    </Link>
  );
}
