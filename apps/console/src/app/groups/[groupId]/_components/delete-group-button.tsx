'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, ConfirmByTypingDialog } from '@weir/ui';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';

type DeleteGroupButtonProps = { groupId: string; memberCount: number };

/** Deletes an empty group; with members it stays visible but disabled, with the reason as its hint. */
export function DeleteGroupButton({ groupId, memberCount }: DeleteGroupButtonProps) {
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
  const blocked =
    memberCount > 0 ? 'Only an empty group can be deleted; stop its consumers first.' : undefined;
  return (
    <>
      <Button variant="danger" disabled={blocked !== undefined} title={blocked} onClick={() => setOpen(true)}>
        Delete group
      </Button>
      <ConfirmByTypingDialog
        open={open}
        title="Delete consumer group"
        description={
          <>
            This deletes <strong>{groupId}</strong> and its committed offsets. A consumer joining later starts
            from its reset policy.
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
    </>
  );
}
