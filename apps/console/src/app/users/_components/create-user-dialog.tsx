'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Field, Input, Select, showBidiControls } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { usernameSchema } from '../../../server/api/schemas/users';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { FormDialog } from '../../_components/form-dialog';
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
    <FormDialog
      open={open}
      title="Create user"
      onClose={close}
      onSubmit={submit}
      submitLabel="Create"
      pendingLabel="Creating…"
      pending={create.isPending}
      error={create.error ? gatewayError(create.error).message : undefined}
      result={
        created ? (
          <OneTimePassword password={created.password}>
            <strong>{showBidiControls(created.username)}</strong> can now authenticate with{' '}
            {created.mechanism} and this password.
          </OneTimePassword>
        ) : null
      }
    >
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
    </FormDialog>
  );
}
