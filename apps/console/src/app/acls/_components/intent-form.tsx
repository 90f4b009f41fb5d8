'use client';

import { Checkbox, Field, Input, Select } from '@weir/ui';
import { ChoiceGroup } from '../../_components/choice-group';
import type { FieldErrors } from '../../_components/field-errors';
import { UserSuggestions } from '../../_components/user-suggestions';
import { PATTERN_OPTIONS } from './acl-text';
import type { IntentDraft } from './intent-draft';

type IntentFormProps = {
  id: string;
  draft: IntentDraft;
  errors: FieldErrors;
  onChange: (draft: IntentDraft) => void;
  onSubmit: () => void;
};

const KIND_CHOICES = [
  { value: 'consume', label: 'Consume', hint: 'Read a topic as a member of a consumer group.' },
  { value: 'produce', label: 'Produce', hint: 'Write to a topic, optionally transactionally.' },
] as const;

const PRINCIPAL_SUGGESTIONS_ID = 'grant-access-principals';

/** The fields of an access intent; which ones show depends on the kind chosen. */
export function IntentForm({ id, draft, errors, onChange, onSubmit }: IntentFormProps) {
  const set = <Key extends keyof IntentDraft>(key: Key, value: IntentDraft[Key]) =>
    onChange({ ...draft, [key]: value });
  const text = (key: 'principal' | 'host' | 'topic' | 'group' | 'transactionalId') => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => set(key, event.target.value),
  });
  const pattern = (key: 'topicPattern' | 'groupPattern' | 'transactionalIdPattern') => ({
    value: draft[key],
    options: PATTERN_OPTIONS,
    onChange: (event: { target: { value: string } }) =>
      set(key, event.target.value as IntentDraft[typeof key]),
  });

  return (
    <form
      id={id}
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <ChoiceGroup
        legend="Access"
        name="intent-kind"
        value={draft.kind}
        choices={KIND_CHOICES}
        onChange={(kind) => set('kind', kind)}
      />
      <Field label="Principal" error={errors.principal} hint="User:<name>, or User:* for everyone.">
        {(control) => (
          <Input {...control} {...text('principal')} list={PRINCIPAL_SUGGESTIONS_ID} autoComplete="off" />
        )}
      </Field>
      <UserSuggestions id={PRINCIPAL_SUGGESTIONS_ID} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Topic" error={errors.topic} hint="* means every topic.">
          {(control) => <Input {...control} {...text('topic')} autoComplete="off" />}
        </Field>
        <Field label="Topic pattern">
          {(control) => <Select {...control} {...pattern('topicPattern')} />}
        </Field>
      </div>
      {draft.kind === 'consume' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Consumer group" error={errors.group}>
            {(control) => <Input {...control} {...text('group')} autoComplete="off" />}
          </Field>
          <Field label="Group pattern">
            {(control) => <Select {...control} {...pattern('groupPattern')} />}
          </Field>
        </div>
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field
              label="Transactional id"
              error={errors.transactionalId}
              hint="Optional: only for transactional producers."
            >
              {(control) => <Input {...control} {...text('transactionalId')} autoComplete="off" />}
            </Field>
            <Field label="Transactional id pattern">
              {(control) => <Select {...control} {...pattern('transactionalIdPattern')} />}
            </Field>
          </div>
          <Checkbox
            label="Idempotent producer (IDEMPOTENT_WRITE on the cluster)"
            checked={draft.idempotent}
            onChange={(event) => set('idempotent', event.target.checked)}
          />
        </>
      )}
      <Field label="Host" error={errors.host} hint="The client address the ACLs apply to; * for any.">
        {(control) => <Input {...control} {...text('host')} autoComplete="off" />}
      </Field>
      {errors.form ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.form}
        </p>
      ) : null}
    </form>
  );
}
