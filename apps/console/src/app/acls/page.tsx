import { PageHeader } from '@weir/ui';
import type { Metadata } from 'next';
import { AclManager } from './_components/acl-manager';

export const metadata: Metadata = { title: 'ACLs' };

/** The broker's ACLs: filter by principal or resource, create, delete by typing. */
export default function AclsPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title="ACLs"
        description="Who may do what on which topic, group, transactional id or the cluster. DENY wins over ALLOW."
      />
      <AclManager />
    </div>
  );
}
