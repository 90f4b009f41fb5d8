import { Badge, DataTable, type DataTableColumn } from '@weir/ui';
import type { AclIntentBinding } from '../../../server/api/schemas/acl-intents';
import { aclKey, aclResourceText } from './acl-text';

const columns: readonly DataTableColumn<AclIntentBinding>[] = [
  { id: 'resource', header: 'Resource', className: 'font-mono text-xs', cell: aclResourceText },
  { id: 'operation', header: 'Operation', cell: (acl) => acl.operation },
  { id: 'permission', header: 'Permission', cell: (acl) => acl.permission },
  { id: 'host', header: 'Host', cell: (acl) => acl.host },
  {
    id: 'status',
    header: 'Status',
    cell: (acl) =>
      acl.exists ? <Badge>Exists already</Badge> : <Badge tone="accent">Will be created</Badge>,
  },
];

/** The exact ACLs an intent expands to, the ones the broker has already marked as such. */
export function IntentPreviewTable({ bindings }: { bindings: readonly AclIntentBinding[] }) {
  return (
    <DataTable
      label="ACLs to grant"
      columns={columns}
      rows={bindings}
      rowKey={aclKey}
      maxHeightClassName="max-h-[40dvh]"
    />
  );
}
