'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionButton, Field, Input, Panel } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';
import { parseWholeNumber } from '../../../_components/field-errors';

type AddPartitionsFormProps = { topic: string; currentCount: number; permission: ActionPermissionView };

/**
 * Raises the partition count. Keys hash to new partitions afterwards, which the hint says. When the
 * principal's ACLs do not allow it, the panel holds only the reason.
 */
export function AddPartitionsForm({ topic, currentCount, permission }: AddPartitionsFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(String(currentCount + 1));
  const [error, setError] = useState<string | undefined>();
  const add = useMutation(
    trpc.topics.addPartitions.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.topics.pathFilter()),
      onError: (failure) => setError(gatewayError(failure).message),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const count = parseWholeNumber(text);
    if (count === undefined || Number.isNaN(count)) return setError('Enter a whole number.');
    if (count <= currentCount) return setError(`The new count must be more than ${currentCount}.`);
    if (count > 10_000) return setError('At most 10,000 partitions.');
    setError(undefined);
    add.mutate({ topic, count, validateOnly: false });
  };
  return (
    <Panel title="Add partitions">
      <ActionGate permission={permission}>
        <form noValidate onSubmit={submit} className="flex items-end gap-2">
          <Field
            label="New partition count"
            error={error}
            hint="Records with a key may move to a new partition, so per-key order holds only from now on."
            className="flex flex-1 flex-col gap-1"
          >
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            )}
          </Field>
          <span className="mt-5 mb-auto">
            <ActionButton type="submit" disabled={add.isPending} disabledReason={permission.reason}>
              Add partitions
            </ActionButton>
          </span>
        </form>
        {add.isSuccess ? (
          <p role="status" className="mt-2 text-emerald-700 text-sm dark:text-emerald-400">
            The topic now has {add.data.count} partitions (was {add.data.previousCount}).
          </p>
        ) : null}
      </ActionGate>
    </Panel>
  );
}
