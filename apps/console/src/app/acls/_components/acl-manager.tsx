'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AsOfIndicator,
  Button,
  ConfirmByTypingDialog,
  DataTable,
  type DataTableColumn,
  Dialog,
  Field,
  Input,
  Panel,
  Select,
  Toolbar,
} from '@weir/ui';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { type AclBindingView, aclBindingSchema } from '../../../server/api/schemas/security';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import { QueryState } from '../../_components/query-state';

const RESOURCE_TYPES = ['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID'] as const;
const OPERATIONS = aclBindingSchema.shape.operation.options;

function aclKey(acl: AclBindingView): string {
  return [
    acl.principal,
    acl.resourceType,
    acl.patternType,
    acl.resourceName,
    acl.host,
    acl.operation,
    acl.permission,
  ].join('|');
}

/** What typing confirms a deletion: the rule in words. */
function describeAcl(acl: AclBindingView): string {
  return `${acl.permission} ${acl.principal} ${acl.operation} ${acl.resourceType}:${acl.resourceName}`;
}

export function AclManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const principal = params.get('principal') ?? '';
  const resource = params.get('resource') ?? '';
  const input = {
    ...(principal === '' ? {} : { principal }),
    ...(resource === '' ? {} : { resource }),
  };
  const query = useQuery(trpc.acls.list.queryOptions(input));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<AclBindingView | null>(null);
  const remove = useMutation(
    trpc.acls.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        await queryClient.invalidateQueries(trpc.acls.list.pathFilter());
      },
    }),
  );

  function setFilter(name: 'principal' | 'resource', value: string) {
    const next = new URLSearchParams(params.toString());
    if (value === '') next.delete(name);
    else next.set(name, value);
    router.replace(`${pathname}${next.size > 0 ? `?${next}` : ''}`);
  }

  const columns: readonly DataTableColumn<AclBindingView>[] = [
    { id: 'principal', header: 'Principal', className: 'font-mono text-xs', cell: (acl) => acl.principal },
    {
      id: 'resource',
      header: 'Resource',
      className: 'font-mono text-xs',
      cell: (acl) =>
        `${acl.resourceType} ${acl.patternType === 'PREFIXED' ? `${acl.resourceName}*` : acl.resourceName}`,
    },
    { id: 'operation', header: 'Operation', cell: (acl) => acl.operation },
    { id: 'permission', header: 'Permission', cell: (acl) => acl.permission },
    { id: 'host', header: 'Host', cell: (acl) => acl.host },
    {
      id: 'actions',
      header: '',
      align: 'right',
      cell: (acl) => (
        <Button
          size="sm"
          variant="danger"
          onClick={() => setDeleting(acl)}
          aria-label={`Delete ${describeAcl(acl)}`}
        >
          Delete
        </Button>
      ),
    },
  ];

  return (
    <Panel
      title="ACL list"
      flush
      actions={
        <AsOfIndicator
          asOfMs={query.data?.asOfMs}
          onRefresh={() => void query.refetch()}
          refreshing={query.isFetching}
        />
      }
    >
      <Toolbar label="ACL filters">
        <Input
          aria-label="Filter by principal"
          placeholder="User:alice"
          defaultValue={principal}
          onBlur={(event) => setFilter('principal', event.target.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilter('principal', event.currentTarget.value.trim());
          }}
        />
        <Input
          aria-label="Filter by resource"
          placeholder="Resource name contains…"
          defaultValue={resource}
          onBlur={(event) => setFilter('resource', event.target.value.trim())}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilter('resource', event.currentTarget.value.trim());
          }}
        />
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create ACL
        </Button>
      </Toolbar>
      <QueryState query={query} errorTitle="Could not read the ACLs">
        {(list) => <DataTable label="ACLs" columns={columns} rows={list.acls} rowKey={aclKey} />}
      </QueryState>
      <CreateAclDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmByTypingDialog
        open={deleting !== null}
        title="Delete ACL"
        description={
          <>
            This removes the rule <strong>{deleting ? describeAcl(deleting) : ''}</strong>.
          </>
        }
        confirmationText={deleting?.principal ?? ''}
        actionLabel="Delete ACL"
        pending={remove.isPending}
        error={remove.error ? gatewayError(remove.error).message : undefined}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      />
    </Panel>
  );
}

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

function CreateAclDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
    <Dialog
      open={open}
      title="Create ACL"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="create-acl-form" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create'}
          </Button>
        </>
      }
    >
      <form id="create-acl-form" noValidate onSubmit={submit} className="flex flex-col gap-3">
        <Field label="Principal" error={errors.principal} hint="User:<name>, or User:* for everyone.">
          {(control) => <Input {...control} value={draft.principal} onChange={set('principal')} />}
        </Field>
        <Field label="Resource type">
          {(control) => (
            <Select
              {...control}
              value={draft.resourceType}
              onChange={set('resourceType')}
              options={RESOURCE_TYPES.map((value) => ({ value, label: value }))}
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
                  options={[
                    { value: 'LITERAL', label: 'Literal (exactly this name)' },
                    { value: 'PREFIXED', label: 'Prefixed (names starting with it)' },
                  ]}
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
        {create.error ? (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {gatewayError(create.error).message}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
