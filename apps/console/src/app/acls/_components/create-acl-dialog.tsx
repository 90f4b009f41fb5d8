'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACL_RESOURCE_TYPES } from '@weir/protocol/names';
import { Field, Input, Select } from '@weir/ui';
import { type FormEvent, useState } from 'react';
import { type AclBindingView, aclBindingSchema } from '../../../server/api/schemas/acls';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { FormDialog } from '../../_components/form-dialog';
import { PATTERN_OPTIONS } from './acl-text';

const OPERATIONS = aclBindingSchema.shape.operation.options;

type Draft = Omit<AclBindingView, 'resourceName' | 'principal' | 'host'> & {
  resourceName: string;
  principal: string;
  host: string;
};

const EMPTY: Draft = {
  resourceType: 'TOPIC',
  resourceName: '',
  patternType: 'LITERAL',
  principal: '',
  host: '*',
  operation: 'READ',
  permission: 'ALLOW',
};

/** Creates one ACL, every field chosen by hand. */
export function CreateAclDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation(
    trpc.acls.create.mutationOptions({
      onSuccess: async () => {
        setDraft(EMPTY);
        onClose();
        await queryClient.invalidateQueries(trpc.acls.list.pathFilter());
      },
    }),
  );
  const set = (key: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = aclBindingSchema.safeParse({
      ...draft,
      resourceName: draft.resourceType === 'CLUSTER' ? 'kafka-cluster' : draft.resourceName,
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      return setErrors(next);
    }
    setErrors({});
    create.mutate(parsed.data);
  }

  return (
    <FormDialog
      open={open}
      title="Create ACL"
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create"
      pendingLabel="Creating…"
      pending={create.isPending}
      error={create.error ? gatewayError(create.error).message : undefined}
    >
      <Field label="Principal" error={errors.principal} hint="User:<name>, or User:* for everyone.">
        {(control) => <Input {...control} value={draft.principal} onChange={set('principal')} />}
      </Field>
      <Field label="Resource type">
        {(control) => (
          <Select
            {...control}
            value={draft.resourceType}
            onChange={set('resourceType')}
            options={ACL_RESOURCE_TYPES.map((value) => ({ value, label: value }))}
          />
        )}
      </Field>
      {draft.resourceType === 'CLUSTER' ? null : (
        <>
          <Field
            label="Resource name"
            error={errors.resourceName}
            hint="* matches every resource of the type."
          >
            {(control) => <Input {...control} value={draft.resourceName} onChange={set('resourceName')} />}
          </Field>
          <Field label="Pattern">
            {(control) => (
              <Select
                {...control}
                value={draft.patternType}
                onChange={set('patternType')}
                options={PATTERN_OPTIONS}
              />
            )}
          </Field>
        </>
      )}
      <Field label="Operation">
        {(control) => (
          <Select
            {...control}
            value={draft.operation}
            onChange={set('operation')}
            options={OPERATIONS.map((value) => ({ value, label: value }))}
          />
        )}
      </Field>
      <Field label="Permission">
        {(control) => (
          <Select
            {...control}
            value={draft.permission}
            onChange={set('permission')}
            options={[
              { value: 'ALLOW', label: 'ALLOW' },
              { value: 'DENY', label: 'DENY' },
            ]}
          />
        )}
      </Field>
      <Field label="Host" error={errors.host}>
        {(control) => <Input {...control} value={draft.host} onChange={set('host')} />}
      </Field>
    </FormDialog>
  );
}
