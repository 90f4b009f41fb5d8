'use client';

import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, ErrorState, LoadingState, showBidiControls } from '@weir/ui';
import { type ReactNode, useState } from 'react';
import { type AclIntentInput, aclIntentSchema } from '../../../server/api/schemas/acl-intents';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { type FieldErrors, topLevelFieldErrors, zodFieldErrors } from '../../_components/field-errors';
import { emptyIntentDraft, type IntentDraft, intentFromDraft } from './intent-draft';
import { IntentForm } from './intent-form';
import { IntentLockoutWarning, locksAnyoneOut } from './intent-lockout-warning';
import { IntentPreviewTable } from './intent-preview-table';

type GrantAccessDialogProps = {
  open: boolean;
  /** Prefills the principal (the ACL list's principal filter, when it names one). */
  initialPrincipal: string;
  onClose: () => void;
};

const FORM_ID = 'grant-access-form';

/**
 * "Let X consume Y with group Z" / "let X produce to Y" in three steps: fill in the intent (checked
 * in the browser with the gateway's schema), review the exact ACLs it expands to with the ones
 * that exist marked, then create the missing ones in one call. Nothing changes before the review.
 * When the new ACLs would lock anyone out (the first ACLs on a resource open to everyone), the
 * review lists who loses what, and Create waits for the person to confirm it.
 */
export function GrantAccessDialog({ open, initialPrincipal, onClose }: GrantAccessDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<IntentDraft>(() => emptyIntentDraft(initialPrincipal));
  const [errors, setErrors] = useState<FieldErrors>({});
  // The validated intent under review; null while editing.
  const [reviewing, setReviewing] = useState<AclIntentInput | null>(null);
  // Whether the person confirmed the lockout of the preview under review.
  const [lockoutConfirmed, setLockoutConfirmed] = useState(false);
  const preview = useQuery({
    ...trpc.acls.previewIntent.queryOptions(reviewing ?? skipToken),
    // The review must show the broker's state now, not a cached answer from an earlier look.
    staleTime: 0,
  });
  const apply = useMutation(
    trpc.acls.applyIntent.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.acls.pathFilter());
      },
    }),
  );

  function close() {
    setDraft(emptyIntentDraft(initialPrincipal));
    setErrors({});
    setReviewing(null);
    setLockoutConfirmed(false);
    apply.reset();
    onClose();
  }

  function review() {
    const intent = intentFromDraft(draft);
    const parsed = aclIntentSchema.safeParse(intent);
    if (!parsed.success) return setErrors(topLevelFieldErrors(zodFieldErrors(parsed.error)));
    setErrors({});
    setLockoutConfirmed(false);
    setReviewing(intent);
  }

  function backToForm(serverError?: unknown) {
    if (serverError !== undefined) {
      const info = gatewayError(serverError);
      const fields = topLevelFieldErrors(info.fieldErrors);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: info.message });
    }
    setReviewing(null);
    setLockoutConfirmed(false);
    apply.reset();
  }

  const applied = apply.data;
  const toCreate = preview.data?.bindings.filter((binding) => !binding.exists).length ?? 0;
  const needsConfirmation = preview.data !== undefined && locksAnyoneOut(preview.data.lockout);

  let body: ReactNode;
  let footer: ReactNode;
  if (applied !== undefined) {
    body = (
      <p role="status" className="text-sm">
        Created {applied.created} {applied.created === 1 ? 'ACL' : 'ACLs'}
        {applied.alreadyPresent > 0 ? `; ${applied.alreadyPresent} existed already` : ''}.
      </p>
    );
    footer = (
      <Button variant="primary" onClick={close}>
        Done
      </Button>
    );
  } else if (reviewing !== null) {
    body = (
      <div className="flex flex-col gap-3">
        <p>
          These ACLs give <strong>{showBidiControls(reviewing.principal)}</strong> what it needs to{' '}
          {reviewing.kind} <strong>{showBidiControls(reviewing.topic)}</strong>. Nothing changes until you
          create them.
        </p>
        {preview.error ? (
          <ErrorState title="Could not preview the ACLs" message={gatewayError(preview.error).message} />
        ) : preview.data === undefined ? (
          <LoadingState />
        ) : (
          <>
            <IntentPreviewTable bindings={preview.data.bindings} />
            {needsConfirmation ? (
              <IntentLockoutWarning
                lockout={preview.data.lockout}
                confirmed={lockoutConfirmed}
                onConfirmedChange={setLockoutConfirmed}
              />
            ) : null}
          </>
        )}
        {apply.error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {gatewayError(apply.error).message}
          </p>
        ) : null}
      </div>
    );
    footer = (
      <>
        <Button onClick={() => backToForm(preview.error ?? undefined)}>Back</Button>
        {preview.data !== undefined && toCreate === 0 ? (
          <Button variant="primary" onClick={close}>
            Nothing to create
          </Button>
        ) : (
          <Button
            variant="primary"
            disabled={
              preview.data === undefined || apply.isPending || (needsConfirmation && !lockoutConfirmed)
            }
            onClick={() => apply.mutate(reviewing)}
          >
            {apply.isPending ? 'Creating…' : `Create ${toCreate} ${toCreate === 1 ? 'ACL' : 'ACLs'}`}
          </Button>
        )}
      </>
    );
  } else {
    body = <IntentForm id={FORM_ID} draft={draft} errors={errors} onChange={setDraft} onSubmit={review} />;
    footer = (
      <>
        <Button onClick={close}>Cancel</Button>
        <Button variant="primary" type="submit" form={FORM_ID}>
          Preview ACLs
        </Button>
      </>
    );
  }

  return (
    <Dialog open={open} title="Grant access" onClose={close} footer={footer} size="lg">
      {body}
    </Dialog>
  );
}
