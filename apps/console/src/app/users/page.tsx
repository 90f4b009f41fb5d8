import { PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { UserManager } from './_components/user-manager';

export const metadata: Metadata = { title: 'Users' };

/** SASL/SCRAM users: create with a generated password shown once, delete by typing. */
export default function UsersPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="Users"
        description="SASL users of the client listener. Passwords are stored salted; the console never keeps them."
      />
      <UserManager />
    </div>
  );
}
