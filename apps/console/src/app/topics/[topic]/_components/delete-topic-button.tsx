'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionButton, ConfirmByTypingDialog } from '@weir/ui';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';

type DeleteTopicButtonProps = {
  topic: string;
  /** From the topic's `allowedActions`; undefined while the topic is being read. */
  permission: ActionPermissionView | undefined;
};

/**
 * Deletes the topic after its name has been typed; then returns to the list. Internal topics keep
 * the button, disabled, with the server's reason beneath it; a principal whose ACLs do not allow
 * the delete gets the reason alone, without the button.
 */
export function DeleteTopicButton({ topic, permission }: DeleteTopicButtonProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useMutation(
    trpc.topics.delete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        queryClient.removeQueries(trpc.topics.get.queryFilter({ topic }));
        await queryClient.invalidateQueries(trpc.topics.list.pathFilter());
        router.push('/topics');
      },
    }),
  );
  return (
    <ActionGate permission={permission}>
      <ActionButton
        variant="danger"
        disabled={permission === undefined}
        disabledReason={permission?.reason}
        onClick={() => setOpen(true)}
      >
        Delete topic
      </ActionButton>
      <ConfirmByTypingDialog
        open={open}
        title="Delete topic"
        description={
          <>
            This deletes <strong>{topic}</strong> and all its records on every broker. Consumer groups keep
            their committed offsets. It cannot be undone.
          </>
        }
        confirmationText={topic}
        actionLabel="Delete topic"
        pending={remove.isPending}
        error={remove.error ? gatewayError(remove.error).message : undefined}
        onConfirm={() => remove.mutate({ topic })}
        onClose={() => {
          remove.reset();
          setOpen(false);
        }}
      />
    </ActionGate>
  );
}
