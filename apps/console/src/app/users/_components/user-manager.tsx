'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  ConfirmByTypingDialog,
  DataTable,
  type DataTableColumn,
  Panel,
  showBidiControls,
  Toolbar,
} from '@weir/ui';
import Link from 'next/link';
import { useState } from 'react';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { QueryAsOf } from '../../_components/query-as-of';
import { QueryState } from '../../_components/query-state';
import { ChangePasswordDialog } from './change-password-dialog';
import { CreateUserDialog } from './create-user-dialog';

type UserRow = { name: string; credentials: { mechanism: string; iterations: number }[] };

export function UserManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.users.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const [changingPassword, setChangingPassword] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        await queryClient.invalidateQueries(trpc.users.list.pathFilter());
      },
    }),
  );
  const columns: readonly DataTableColumn<UserRow>[] = [
    {
      id: 'name',
      header: 'Username',
      className: 'font-mono text-xs',
      cell: (user) => showBidiControls(user.name),
    },
    {
      id: 'mechanisms',
      header: 'Credentials',
      cell: (user) => user.credentials.map((c) => `${c.mechanism} (${c.iterations})`).join(', '),
    },
    {
      id: 'actions',
      header: '',
      align: 'right',
      cell: (user) => (
        <span className="inline-flex items-center gap-2">
          <Link
            href={`/acls/effective?principal=${encodeURIComponent(`User:${user.name}`)}`}
            aria-label={`Effective permissions of ${user.name}`}
            className="text-teal-700 text-xs hover:underline dark:text-teal-400"
          >
            Permissions
          </Link>
          <Button
            size="sm"
            onClick={() => setChangingPassword(user.name)}
            aria-label={`Change password of ${user.name}`}
          >
            Change password
          </Button>
          <Button
            size="sm"
            variant="danger"
            onClick={() => setDeleting(user.name)}
            aria-label={`Delete ${user.name}`}
          >
            Delete
          </Button>
        </span>
      ),
    },
  ];
  return (
    <Panel title="User list" flush actions={<QueryAsOf query={query} />}>
      <Toolbar label="User actions">
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create user
        </Button>
      </Toolbar>
      <QueryState query={query} errorTitle="Could not read the users">
        {(list) => (
          <DataTable label="Users" columns={columns} rows={list.users} rowKey={(user) => user.name} />
        )}
      </QueryState>
      <CreateUserDialog open={creating} onClose={() => setCreating(false)} />
      {/* Mounted only while open: the password it shows is gone once the dialog closes. */}
      {changingPassword !== null ? (
        <ChangePasswordDialog username={changingPassword} onClose={() => setChangingPassword(null)} />
      ) : null}
      <ConfirmByTypingDialog
        open={deleting !== null}
        title="Delete user"
        description={
          <>
            This deletes <strong>{deleting}</strong>: its clients can no longer authenticate. Its ACLs stay.
          </>
        }
        confirmationText={deleting ?? ''}
        actionLabel="Delete user"
        pending={remove.isPending}
        error={remove.error ? gatewayError(remove.error).message : undefined}
        onConfirm={() => deleting && remove.mutate({ username: deleting })}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      />
    </Panel>
  );
}
