'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ActionButton, ConfirmByTypingDialog, Field, formatCount, Input, Panel, Select } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import type { ActionPermissionView } from '../../../../server/api/schemas/common';
import type { PartitionDetail } from '../../../../server/api/schemas/topics';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';

/** "Records deleted: partition 1 now starts at offset 4." (one clause per partition). */
function deletedSummary(partitions: readonly { partition: number; logStartOffset: string }[]): string {
  const clauses = partitions.map(
    (p) => `partition ${p.partition} now starts at offset ${formatCount(p.logStartOffset)}`,
  );
  return `Records deleted: ${clauses.join('; ')}.`;
}

type DeleteRecordsFormProps = {
  topic: string;
  partitions: readonly PartitionDetail[];
  permission: ActionPermissionView;
};

/**
 * Moves a partition's log start forward: records before the offset are gone for every reader. When
 * the principal's ACLs do not allow it, the panel holds only the reason.
 */
export function DeleteRecordsForm({ topic, partitions, permission }: DeleteRecordsFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [partition, setPartition] = useState(String(partitions[0]?.partition ?? 0));
  const [offset, setOffset] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const selected = partitions.find((candidate) => String(candidate.partition) === partition);
  const remove = useMutation(
    trpc.topics.deleteRecords.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await queryClient.invalidateQueries(trpc.topics.pathFilter());
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{1,19}$/.test(offset.trim())) return setError('Enter an offset (a whole number).');
    if (selected?.highWatermark === null) return setError('The partition is offline: it has no leader.');
    if (selected && BigInt(offset.trim()) > BigInt(selected.highWatermark)) {
      return setError(`The offset is past the high watermark (${formatCount(selected.highWatermark)}).`);
    }
    setError(undefined);
    setConfirming(true);
  };
  return (
    <Panel title="Delete records">
      <ActionGate permission={permission}>
        <form noValidate onSubmit={submit} className="flex flex-wrap items-start gap-2">
          <Field label="Partition">
            {(control) => (
              <Select
                {...control}
                value={partition}
                onChange={(event) => setPartition(event.target.value)}
                options={partitions.map((p) => ({
                  value: String(p.partition),
                  label: String(p.partition),
                }))}
              />
            )}
          </Field>
          <Field
            label="Before offset"
            error={error}
            hint={
              selected?.offline
                ? 'Offline: the partition has no leader the console can reach.'
                : selected && selected.logStartOffset !== null && selected.highWatermark !== null
                  ? `Log start ${formatCount(selected.logStartOffset)}, high watermark ${formatCount(selected.highWatermark)}.`
                  : undefined
            }
            className="flex flex-1 flex-col gap-1"
          >
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={offset}
                onChange={(e) => setOffset(e.target.value)}
              />
            )}
          </Field>
          <span className="mt-5">
            <ActionButton type="submit" variant="danger" disabledReason={permission.reason}>
              Delete records…
            </ActionButton>
          </span>
        </form>
        {remove.isSuccess ? (
          <p role="status" className="mt-2 text-emerald-700 text-sm dark:text-emerald-400">
            {deletedSummary(remove.data.partitions)}
          </p>
        ) : null}
        <ConfirmByTypingDialog
          open={confirming}
          title="Delete records"
          description={
            <>
              Records of <strong>{topic}</strong> partition <strong>{partition}</strong> before offset{' '}
              <strong>{formatCount(offset.trim() || '0')}</strong> will be deleted for every consumer.
            </>
          }
          confirmationText={topic}
          actionLabel="Delete records"
          pending={remove.isPending}
          error={remove.error ? gatewayError(remove.error).message : undefined}
          onConfirm={() =>
            remove.mutate({
              topic,
              partitions: [{ partition: Number(partition), beforeOffset: offset.trim() }],
            })
          }
          onClose={() => {
            remove.reset();
            setConfirming(false);
          }}
        />
      </ActionGate>
    </Panel>
  );
}
