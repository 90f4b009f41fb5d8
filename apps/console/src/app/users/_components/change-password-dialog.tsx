'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Field, Input, showBidiControls } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { typedPasswordSchema } from '../../../server/api/schemas/users';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { ChoiceGroup } from '../../_components/choice-group';
import { FormDialog } from '../../_components/form-dialog';
import { OneTimePassword } from '../../_components/one-time-password';

type PasswordSource = 'generate' | 'type';

const SOURCE_CHOICES = [
  { value: 'generate', label: 'Generate one', hint: '32 random characters, shown once.' },
  { value: 'type', label: 'Type one', hint: 'At least 8 characters.' },
] as const;

type ChangePasswordDialogProps = { username: string; onClose: () => void };

/**
 * Gives a user a new password, generated or typed. Every mechanism the user has keeps working with
 * the new one, and the old one stops. The new password is shown once, with a copy button, so the
 * admin can hand it over; the console keeps no copy.
 */
export function ChangePasswordDialog({ username, onClose }: ChangePasswordDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<PasswordSource>('generate');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  // The typed password, remembered only until the dialog closes, to show it like a generated one.
  const [submittedPassword, setSubmittedPassword] = useState<string | null>(null);
  const change = useMutation(
    trpc.users.setPassword.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.users.list.pathFilter());
      },
      onError: (failure) => setError(gatewayError(failure).fieldErrors.password),
    }),
  );
  const changed = change.data;
  const newPassword = changed?.generatedPassword ?? submittedPassword;
  // A password the gateway refused shows at its field; any other failure under the form.
  const failure = change.error ? gatewayError(change.error) : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (source === 'generate') {
      setSubmittedPassword(null);
      return change.mutate({ username });
    }
    const parsed = typedPasswordSchema.safeParse(typed);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    setSubmittedPassword(parsed.data);
    change.mutate({ username, password: parsed.data });
  }

  return (
    <FormDialog
      open
      title="Change password"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Change password"
      pendingLabel="Changing…"
      pending={change.isPending}
      error={failure?.fieldErrors.password === undefined ? failure?.message : undefined}
      result={
        changed && newPassword !== null ? (
          <OneTimePassword password={newPassword}>
            <strong>{showBidiControls(changed.username)}</strong> now authenticates with this password (
            {changed.mechanisms.join(', ')}); the old one no longer works.
          </OneTimePassword>
        ) : null
      }
    >
      <p className="text-sm">
        A new password for <strong>{showBidiControls(username)}</strong>, on every mechanism it has.
      </p>
      <ChoiceGroup
        legend="Choose the new password"
        name="password-source"
        value={source}
        choices={SOURCE_CHOICES}
        onChange={(next) => {
          setSource(next);
          setError(undefined);
        }}
      />
      {source === 'type' ? (
        <Field label="New password" error={error}>
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="new-password"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </Field>
      ) : null}
    </FormDialog>
  );
}
