'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionButton, ConfirmByTypingDialog, showBidiControls } from '@weir/ui';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';

type DeleteGroupButtonProps = { groupId: string; permission: ActionPermissionView };

/**
 * Deletes an empty group. While the server's `allowedActions` deny it (the group has members) it
 * stays visible but disabled, with the server's reason as its hint; when the principal's ACLs deny
 * it, only the reason is shown.
 */
export function DeleteGroupButton({ groupId, permission }: DeleteGroupButtonProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.groups.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        await queryClient.invalidateQueries(trpc.groups.pathFilter());
        router.push('/groups');
      },
    }),
  );
  return (
    <ActionGate permission={permission}>
      <ActionButton variant="danger" disabledReason={permission.reason} onClick={() => setOpen(true)}>
        Delete group
      </ActionButton>
      <ConfirmByTypingDialog
        open={open}
        title="Delete consumer group"
        description={
          <>
            This deletes <strong>{showBidiControls(groupId)}</strong> and its committed offsets. A consumer
            joining later starts from its reset policy.
          </>
        }
        confirmationText={groupId}
        actionLabel="Delete group"
        pending={remove.isPending}
        error={remove.error ? gatewayError(remove.error).message : undefined}
        onConfirm={() => remove.mutate({ groupId })}
        onClose={() => {
          remove.reset();
          setOpen(false);
        }}
      />
    </ActionGate>
  );
}
