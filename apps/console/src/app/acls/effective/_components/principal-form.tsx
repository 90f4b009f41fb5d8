'use client';

import { Button, Field, Input } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { effectivePermissionsInputSchema } from '../../../../server/api/schemas/effective-permissions';
import { type FieldErrors, zodFieldErrors } from '../../../_components/field-errors';
import { UserSuggestions } from '../../../_components/user-suggestions';

type PrincipalFormProps = {
  principal: string;
  host: string;
  onShow: (choice: { principal: string; host: string }) => void;
};

const SUGGESTIONS_ID = 'effective-permissions-principals';

/** Whose permissions, from which host; checked with the gateway's schema before asking. */
export function PrincipalForm({ principal, host, onShow }: PrincipalFormProps) {
  const [draft, setDraft] = useState({ principal, host });
  const [errors, setErrors] = useState<FieldErrors>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = effectivePermissionsInputSchema.safeParse(draft);
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    onShow(parsed.data);
  }

  return (
    <form
      aria-label="Choose a principal"
      noValidate
      onSubmit={submit}
      className="flex flex-wrap items-start gap-3"
    >
      <Field
        label="Principal"
        error={errors.principal}
        hint="User:<name>"
        className="flex w-72 flex-col gap-1"
      >
        {(control) => (
          <Input
            {...control}
            list={SUGGESTIONS_ID}
            autoComplete="off"
            placeholder="User:alice"
            value={draft.principal}
            onChange={(event) => setDraft({ ...draft, principal: event.target.value })}
          />
        )}
      </Field>
      <UserSuggestions id={SUGGESTIONS_ID} />
      <Field label="Host" error={errors.host} hint="* for any host" className="flex w-44 flex-col gap-1">
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            value={draft.host}
            onChange={(event) => setDraft({ ...draft, host: event.target.value })}
          />
        )}
      </Field>
      <Button variant="primary" type="submit" className="mt-5">
        Show permissions
      </Button>
    </form>
  );
}
