'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  ConfirmByTypingDialog,
  DataTable,
  type DataTableColumn,
  Input,
  Panel,
  showBidiControls,
  Toolbar,
} from '@weir/ui';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import type { AclBindingView } from '../../../server/api/schemas/acls';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { QueryAsOf } from '../../_components/query-as-of';
import { QueryState } from '../../_components/query-state';
import { aclListInput } from './acl-list-input';
import { aclKey, aclResourceText, describeAcl } from './acl-text';
import { CreateAclDialog } from './create-acl-dialog';
import { GrantAccessDialog } from './grant-access-dialog';

export function AclManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const principal = params.get('principal') ?? '';
  const resource = params.get('resource') ?? '';
  const query = useQuery(trpc.acls.list.queryOptions(aclListInput({ principal, resource })));
  const [creating, setCreating] = useState(false);
  const [granting, setGranting] = useState(false);
  const [deleting, setDeleting] = useState<AclBindingView | null>(null);
  const remove = useMutation(
    trpc.acls.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        await queryClient.invalidateQueries(trpc.acls.list.pathFilter());
      },
    }),
  );

  function setFilter(name: 'principal' | 'resource', value: string) {
    const next = new URLSearchParams(params.toString());
    if (value === '') next.delete(name);
    else next.set(name, value);
    router.replace(`${pathname}${next.size > 0 ? `?${next}` : ''}`);
  }

  const columns: readonly DataTableColumn<AclBindingView>[] = [
    {
      id: 'principal',
      header: 'Principal',
      className: 'font-mono text-xs',
      cell: (acl) => showBidiControls(acl.principal),
    },
    {
      id: 'resource',
      header: 'Resource',
      className: 'font-mono text-xs',
      cell: aclResourceText,
    },
    { id: 'operation', header: 'Operation', cell: (acl) => acl.operation },
    { id: 'permission', header: 'Permission', cell: (acl) => acl.permission },
    { id: 'host', header: 'Host', cell: (acl) => showBidiControls(acl.host) },
    {
      id: 'actions',
      header: '',
      align: 'right',
      cell: (acl) => (
        <Button
          size="sm"
          variant="danger"
          onClick={() => setDeleting(acl)}
          aria-label={`Delete ${describeAcl(acl)}`}
        >
          Delete
        </Button>
      ),
    },
  ];

  return (
    <Panel title="ACL list" flush actions={<QueryAsOf query={query} />}>
      <Toolbar label="ACL filters">
        <Input
          aria-label="Filter by principal"
          placeholder="User:alice"
          defaultValue={principal}
          onBlur={(event) => setFilter('principal', event.target.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilter('principal', event.currentTarget.value.trim());
          }}
        />
        <Input
          aria-label="Filter by resource"
          placeholder="Resource name contains…"
          defaultValue={resource}
          onBlur={(event) => setFilter('resource', event.target.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilter('resource', event.currentTarget.value.trim());
          }}
        />
        <Button variant="primary" onClick={() => setGranting(true)}>
          Grant access
        </Button>
        <Button onClick={() => setCreating(true)}>Create ACL</Button>
        <Link
          href={`/acls/effective${principal.startsWith('User:') ? `?principal=${encodeURIComponent(principal)}` : ''}`}
          className="text-sm text-teal-700 hover:underline dark:text-teal-400"
        >
          Effective permissions
        </Link>
      </Toolbar>
      <QueryState query={query} errorTitle="Could not read the ACLs">
        {(list) => <DataTable label="ACLs" columns={columns} rows={list.acls} rowKey={aclKey} />}
      </QueryState>
      <CreateAclDialog open={creating} onClose={() => setCreating(false)} />
      {/* Mounted only while open, so each grant starts from a fresh form with the current filter. */}
      {granting ? (
        <GrantAccessDialog
          open
          initialPrincipal={principal.startsWith('User:') ? principal : ''}
          onClose={() => setGranting(false)}
        />
      ) : null}
      <ConfirmByTypingDialog
        open={deleting !== null}
        title="Delete ACL"
        description={
          <>
            This removes the rule <strong>{deleting ? describeAcl(deleting) : ''}</strong>.
          </>
        }
        confirmationText={deleting?.principal ?? ''}
        actionLabel="Delete ACL"
        pending={remove.isPending}
        error={remove.error ? gatewayError(remove.error).message : undefined}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      />
    </Panel>
  );
}
