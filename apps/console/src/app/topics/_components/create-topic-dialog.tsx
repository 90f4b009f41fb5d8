'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Field, Input, Select, TextArea } from '@weir/ui';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { createTopicInputSchema, type TopicPresetId } from '../../../server/api/schemas/topics';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import {
  type FieldErrors,
  parseWholeNumber,
  topLevelFieldErrors,
  zodFieldErrors,
} from '../../_components/field-errors';
import { FormDialog } from '../../_components/form-dialog';
import { parseConfigLines } from './parse-config-lines';

type CreateTopicDialogProps = { open: boolean; onClose: () => void };

type FormValues = {
  name: string;
  partitions: string;
  replicationFactor: string;
  preset: TopicPresetId;
  configs: string;
};

const emptyForm: FormValues = {
  name: '',
  partitions: '1',
  replicationFactor: '',
  preset: 'default',
  configs: '',
};

/**
 * Creates a topic. The input is checked in the browser with the gateway's own zod schema, so the
 * user sees field errors before a round trip; errors the broker reports (a name already taken, a
 * config it refuses) are mapped back onto the same fields.
 */
export function CreateTopicDialog({ open, onClose }: CreateTopicDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [values, setValues] = useState<FormValues>(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const presets = useQuery({ ...trpc.topics.presets.queryOptions({}), enabled: open });
  const create = useMutation(
    trpc.topics.create.mutationOptions({
      onSuccess: async (result) => {
        await queryClient.invalidateQueries(trpc.topics.pathFilter());
        close();
        router.push(`/topics/${encodeURIComponent(result.name)}`);
      },
      onError: (error) => {
        const info = gatewayError(error);
        const fields = topLevelFieldErrors(info.fieldErrors);
        if (info.code === 'CONFLICT') fields.name = 'A topic with this name already exists.';
        else if (Object.keys(fields).length === 0) fields.form = info.message;
        setErrors(fields);
      },
    }),
  );

  const close = () => {
    setValues(emptyForm);
    setErrors({});
    create.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const configs = parseConfigLines(values.configs);
    if ('error' in configs) return setErrors({ configs: configs.error });
    const parsed = createTopicInputSchema.safeParse({
      name: values.name.trim(),
      partitions: parseWholeNumber(values.partitions),
      replicationFactor: parseWholeNumber(values.replicationFactor),
      preset: values.preset,
      configs: Object.keys(configs.configs).length > 0 ? configs.configs : undefined,
    });
    if (!parsed.success) return setErrors(topLevelFieldErrors(zodFieldErrors(parsed.error)));
    setErrors({});
    create.mutate(parsed.data);
  };

  const set = (name: keyof FormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value }));
  const presetList = presets.data?.presets ?? [];
  const preset = presetList.find((candidate) => candidate.id === values.preset);

  return (
    <FormDialog
      open={open}
      title="Create topic"
      onClose={close}
      onSubmit={submit}
      submitLabel="Create"
      pendingLabel="Creating…"
      pending={create.isPending}
      error={errors.form}
    >
      <Field label="Name" error={errors.name} hint="Letters, digits, '.', '_' and '-'; up to 249 characters.">
        {(control) => (
          <Input {...control} autoFocus autoComplete="off" value={values.name} onChange={set('name')} />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Partitions" error={errors.partitions}>
          {(control) => (
            <Input {...control} inputMode="numeric" value={values.partitions} onChange={set('partitions')} />
          )}
        </Field>
        <Field
          label="Replication factor"
          error={errors.replicationFactor}
          hint="Empty: the broker's default."
        >
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              value={values.replicationFactor}
              onChange={set('replicationFactor')}
            />
          )}
        </Field>
      </div>
      <Field label="Preset" error={errors.preset} hint={preset?.description}>
        {(control) => (
          <Select
            {...control}
            value={values.preset}
            onChange={set('preset')}
            options={
              presetList.length > 0
                ? presetList.map((candidate) => ({ value: candidate.id, label: candidate.label }))
                : [{ value: 'default', label: 'Broker defaults' }]
            }
          />
        )}
      </Field>
      <Field
        label="Custom configs"
        error={errors.configs}
        hint="One name=value per line; these override the preset, e.g. retention.ms=3600000."
      >
        {(control) => <TextArea {...control} rows={3} value={values.configs} onChange={set('configs')} />}
      </Field>
    </FormDialog>
  );
}
