'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, ConfirmByTypingDialog } from '@weir/ui';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';

/** Deletes the topic after its name has been typed; then returns to the list. */
export function DeleteTopicButton({ topic }: { topic: string }) {
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
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete topic
      </Button>
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
    </>
  );
}
