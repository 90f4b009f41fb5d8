'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AsOfIndicator,
  Button,
  ConfirmByTypingDialog,
  CopyButton,
  DataTable,
  type DataTableColumn,
  Dialog,
  Field,
  Input,
  Panel,
  Select,
  Toolbar,
} from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { usernameSchema } from '../../../server/api/schemas/security';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { QueryState } from '../../_components/query-state';

type UserRow = { name: string; credentials: { mechanism: string; iterations: number }[] };

export function UserManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.users.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
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
    { id: 'name', header: 'Username', className: 'font-mono text-xs', cell: (user) => user.name },
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
        <Button
          size="sm"
          variant="danger"
          onClick={() => setDeleting(user.name)}
          aria-label={`Delete ${user.name}`}
        >
          Delete
        </Button>
      ),
    },
  ];
  return (
    <Panel
      title="User list"
      flush
      actions={
        <AsOfIndicator
          asOfMs={query.data?.asOfMs}
          onRefresh={() => void query.refetch()}
          refreshing={query.isFetching}
        />
      }
    >
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

function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [mechanism, setMechanism] = useState<'SCRAM-SHA-256' | 'SCRAM-SHA-512'>('SCRAM-SHA-256');
  const [error, setError] = useState<string | undefined>();
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.users.list.pathFilter());
      },
    }),
  );
  const created = create.data;

  function close() {
    setUsername('');
    setError(undefined);
    create.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    create.mutate({ username: parsed.data, mechanism });
  }

  return (
    <Dialog
      open={open}
      title="Create user"
      onClose={close}
      footer={
        created ? (
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="primary" type="submit" form="create-user-form" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create'}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            <strong>{created.username}</strong> can now authenticate with {created.mechanism}. Copy the
            password now: it is shown only once.
          </p>
          <p className="flex items-center gap-2">
            <code
              className="rounded bg-zinc-100 px-2 py-1 font-mono dark:bg-zinc-800"
              data-testid="generated-password"
            >
              {created.password}
            </code>
            <CopyButton text={() => created.password} label="Copy password" />
          </p>
        </div>
      ) : (
        <form id="create-user-form" noValidate onSubmit={submit} className="flex flex-col gap-3">
          <Field label="Username" error={error}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            )}
          </Field>
          <Field label="Mechanism">
            {(control) => (
              <Select
                {...control}
                value={mechanism}
                onChange={(e) => setMechanism(e.target.value as typeof mechanism)}
                options={[
                  { value: 'SCRAM-SHA-256', label: 'SCRAM-SHA-256' },
                  { value: 'SCRAM-SHA-512', label: 'SCRAM-SHA-512' },
                ]}
              />
            )}
          </Field>
          {create.error ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {gatewayError(create.error).message}
            </p>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}
