'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Field, Input, Select } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { usernameSchema } from '../../../server/api/schemas/users';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { OneTimePassword } from '../../_components/one-time-password';
import { MECHANISM_OPTIONS, type ScramMechanism } from './scram-mechanisms';

/** Creates a user with a generated password, which the dialog shows once. */
export function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [mechanism, setMechanism] = useState<ScramMechanism>('SCRAM-SHA-256');
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
          <OneTimePassword password={created.password} />
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
                onChange={(e) => setMechanism(e.target.value as ScramMechanism)}
                options={MECHANISM_OPTIONS}
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
