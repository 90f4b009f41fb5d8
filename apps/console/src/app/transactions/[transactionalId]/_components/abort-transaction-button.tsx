'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionButton, ConfirmByTypingDialog, Field, showBidiControls, TextArea } from '@weir/ui';
import { useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';

type AbortTransactionButtonProps = { transactionalId: string; permission: ActionPermissionView };

/**
 * The operator's abort of an open (usually hanging) transaction. The dialog asks for a reason,
 * which the broker logs with the console's principal, and for the transactional id to be typed.
 * While the server denies it (nothing is open) the button stays visible, disabled, with the reason;
 * when the principal's ACLs deny it, only the reason is shown.
 */
export function AbortTransactionButton({ transactionalId, permission }: AbortTransactionButtonProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const abort = useMutation(
    trpc.transactions.abort.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        setReason('');
        await queryClient.invalidateQueries(trpc.transactions.pathFilter());
        await queryClient.invalidateQueries(trpc.topics.pathFilter());
      },
    }),
  );
  const error = abort.error ? gatewayError(abort.error) : undefined;
  return (
    <ActionGate permission={permission}>
      <ActionButton variant="danger" disabledReason={permission.reason} onClick={() => setOpen(true)}>
        Abort transaction
      </ActionButton>
      <ConfirmByTypingDialog
        open={open}
        title="Abort transaction"
        description={
          <>
            This aborts the open transaction of <strong>{showBidiControls(transactionalId)}</strong>: ABORT
            markers are written to its partitions, so its records are never read by read_committed consumers,
            and the producer's epoch is bumped, which fences the producer still holding it.
          </>
        }
        confirmationText={transactionalId}
        actionLabel="Abort transaction"
        ready={reason.trim() !== ''}
        pending={abort.isPending}
        error={error && !error.fieldErrors.reason ? error.message : undefined}
        onConfirm={() => abort.mutate({ transactionalId, reason: reason.trim() })}
        onClose={() => {
          abort.reset();
          setReason('');
          setOpen(false);
        }}
      >
        <Field
          label="Reason (required, logged by the broker)"
          error={error?.fieldErrors.reason}
          hint="Say why, for whoever reads the broker log later."
        >
          {(control) => (
            <TextArea
              {...control}
              rows={2}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
      </ConfirmByTypingDialog>
    </ActionGate>
  );
}
