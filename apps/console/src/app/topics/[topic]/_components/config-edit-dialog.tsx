'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Dialog, Field, Input } from '@weir/ui';
import { useState } from 'react';
import type { AlterConfigsInput, ConfigDiff, TopicConfigs } from '../../../../server/api/schemas/topics';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';

type ConfigEditDialogProps = {
  topic: string;
  entry: TopicConfigs['configs'][number];
  onClose: () => void;
};

/**
 * Edits one config in two deliberate steps: Preview asks the broker to validate the change and
 * returns the old → new diff without applying it; Apply sends the same change for real.
 */
export function ConfigEditDialog({ topic, entry, onClose }: ConfigEditDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(entry.value ?? '');
  const [reset, setReset] = useState(false);
  const [diff, setDiff] = useState<ConfigDiff[] | null>(null);
  const alter = useMutation(trpc.topics.alterConfigs.mutationOptions());

  const input = (dryRun: boolean): AlterConfigsInput => ({
    topic,
    dryRun,
    changes: [
      reset ? { name: entry.name, operation: 'delete' } : { name: entry.name, operation: 'set', value },
    ],
  });

  const preview = () => alter.mutate(input(true), { onSuccess: (result) => setDiff(result.diff) });
  const apply = () =>
    alter.mutate(input(false), {
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.topics.configs.queryFilter({ topic }));
        onClose();
      },
    });

  const error = alter.error ? gatewayError(alter.error) : undefined;
  const edited = () => setDiff(null);

  return (
    <Dialog
      open
      title={`Edit ${entry.name}`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          {diff === null ? (
            <Button variant="primary" onClick={preview} disabled={alter.isPending}>
              Preview change
            </Button>
          ) : (
            <Button variant="primary" onClick={apply} disabled={alter.isPending}>
              Apply change
            </Button>
          )}
        </>
      }
    >
      <div className="flex flex-col gap-3">
        {entry.documentation ? <p className="text-sm">{entry.documentation}</p> : null}
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {entry.type === 'unknown' ? null : <>Type {entry.type}. </>}Current value comes from{' '}
          <strong>{entry.source}</strong>.
        </p>
        <Field label="New value" error={error?.fieldErrors['changes.0.value'] ?? error?.message}>
          {(control) => (
            <Input
              {...control}
              className="font-mono"
              disabled={reset}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                edited();
              }}
            />
          )}
        </Field>
        <Checkbox
          label="Reset to the default (remove the topic's own value)"
          checked={reset}
          onChange={(event) => {
            setReset(event.target.checked);
            edited();
          }}
        />
        {diff ? <ConfigDiffTable diff={diff} /> : null}
      </div>
    </Dialog>
  );
}

function ConfigDiffTable({ diff }: { diff: readonly ConfigDiff[] }) {
  return (
    <table aria-label="Change preview" className="w-full text-xs">
      <thead>
        <tr className="text-left text-zinc-500">
          <th scope="col" className="py-1">
            Config
          </th>
          <th scope="col">Old</th>
          <th scope="col">New</th>
        </tr>
      </thead>
      <tbody className="font-mono">
        {diff.map((change) => (
          <tr key={change.name}>
            <td className="py-1 pr-2">{change.name}</td>
            <td className="pr-2 text-rose-700 line-through dark:text-rose-400">
              {change.oldValue ?? 'null'}
            </td>
            <td className="text-emerald-700 dark:text-emerald-400">
              {change.newValue ?? (change.operation === 'delete' ? 'default' : 'null')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
