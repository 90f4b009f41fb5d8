import { PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { HydrateClient, prefetch, trpc } from '../../trpc/server';
import { UserManager } from './_components/user-manager';

export const metadata: Metadata = { title: 'Users' };

/**
 * SASL/SCRAM users: create with a generated password shown once, change a password, see what a
 * user may do, delete by typing. The list is fetched before rendering.
 */
export default async function UsersPage() {
  await prefetch(trpc.users.list.queryOptions({}));
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Users"
        description="SASL users of the client listener. Passwords are stored salted; the console never keeps them."
      />
      <HydrateClient>
        <UserManager />
      </HydrateClient>
    </div>
  );
}
