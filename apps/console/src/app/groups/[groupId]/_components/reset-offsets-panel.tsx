'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Field, Input, Panel, parseDateTimeInput, Select, useTimeZone } from '@weir/ui';
import { useState } from 'react';
import {
  type GroupDetail,
  type ResetOffsetsInput,
  type ResetOffsetsResult,
  resetOffsetsInputSchema,
} from '../../../../server/api/schemas/groups';
import { gatewayError } from '../../../../trpc/errors';
import { useTRPC } from '../../../../trpc/react';
import { ActionGate } from '../../../_components/action-gate';
import { type FieldErrors, zodFieldErrors } from '../../../_components/field-errors';
import { ResetPlanTable } from './reset-plan-table';

type Target = ResetOffsetsInput['target'];

const targetOptions: { value: Target; label: string }[] = [
  { value: 'earliest', label: 'Earliest' },
  { value: 'latest', label: 'Latest' },
  { value: 'timestamp', label: 'Timestamp' },
  { value: 'offset', label: 'Offset' },
  { value: 'shiftBy', label: 'Shift by' },
];

/**
 * Offset reset in two steps: Preview computes old → new per partition without changing anything;
 * Apply commits that plan. The server's `allowedActions` only allow it while the group is empty, so
 * otherwise the controls stay visible but disabled, with the server's reason. When the principal's
 * ACLs do not allow it, the panel holds only the reason.
 */
export function ResetOffsetsPanel({ group }: { group: GroupDetail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { mode } = useTimeZone();
  const topics = [...new Set(group.partitions.map((row) => row.topic))].sort();
  const [target, setTarget] = useState<Target>('earliest');
  const [time, setTime] = useState('');
  const [offset, setOffset] = useState('');
  const [shift, setShift] = useState('');
  const [selected, setSelected] = useState<string[]>(topics);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [plan, setPlan] = useState<ResetOffsetsResult | null>(null);
  const reset = useMutation(
    trpc.groups.resetOffsets.mutationOptions({
      onError: (error) => {
        const info = gatewayError(error);
        setErrors(Object.keys(info.fieldErrors).length > 0 ? info.fieldErrors : { form: info.message });
      },
    }),
  );
  const permission = group.allowedActions.resetOffsets;
  const blocked = !permission.allowed;
  const edited = () => setPlan(null);
  // Any edit invalidates the preview, so Apply can only commit a plan the user has seen.
  const change = (setter: (value: string) => void, value: string) => {
    setter(value);
    edited();
  };

  const run = (dryRun: boolean) => {
    const parsed = resetOffsetsInputSchema.safeParse({
      groupId: group.groupId,
      target,
      timestampMs: target === 'timestamp' ? parseDateTimeInput(time, mode) : undefined,
      offset: target === 'offset' ? offset.trim() : undefined,
      shiftBy: target === 'shiftBy' ? shift.trim() : undefined,
      topics: selected,
      dryRun,
    });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    reset.mutate(parsed.data, {
      onSuccess: async (result) => {
        setPlan(result);
        if (!result.dryRun) await queryClient.invalidateQueries(trpc.groups.pathFilter());
      },
    });
  };

  return (
    <Panel title="Reset offsets">
      <ActionGate permission={permission}>
        <div className="flex flex-col gap-3">
          {blocked ? (
            <p
              role="note"
              className="rounded-md bg-amber-50 px-3 py-2 text-amber-800 text-sm dark:bg-amber-500/10 dark:text-amber-300"
            >
              {permission.reason}
            </p>
          ) : null}
          <fieldset
            disabled={blocked}
            className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0 disabled:opacity-60"
          >
            <div className="flex flex-wrap items-start gap-3">
              <Field label="Reset to">
                {(control) => (
                  <Select
                    {...control}
                    value={target}
                    onChange={(event) => {
                      setTarget(event.target.value as Target);
                      edited();
                    }}
                    options={targetOptions}
                  />
                )}
              </Field>
              {target === 'timestamp' ? (
                <Field label={`Time (${mode === 'utc' ? 'UTC' : 'local time'})`} error={errors.timestampMs}>
                  {(control) => (
                    <Input
                      {...control}
                      type="datetime-local"
                      step="1"
                      value={time}
                      onChange={(e) => change(setTime, e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
              {target === 'offset' ? (
                <Field label="Offset" error={errors.offset}>
                  {(control) => (
                    <Input
                      {...control}
                      inputMode="numeric"
                      value={offset}
                      onChange={(e) => change(setOffset, e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
              {target === 'shiftBy' ? (
                <Field label="Shift by" error={errors.shiftBy} hint="Negative moves back, e.g. -100.">
                  {(control) => (
                    <Input
                      {...control}
                      inputMode="numeric"
                      value={shift}
                      onChange={(e) => change(setShift, e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
            </div>
            <fieldset className="m-0 flex min-w-0 flex-wrap gap-3 border-0 p-0">
              <legend className="mb-1 font-medium text-xs text-zinc-700 dark:text-zinc-300">Topics</legend>
              {topics.map((topic) => (
                <Checkbox
                  key={topic}
                  label={topic}
                  checked={selected.includes(topic)}
                  onChange={(event) => {
                    setSelected((current) =>
                      event.target.checked ? [...current, topic] : current.filter((t) => t !== topic),
                    );
                    edited();
                  }}
                />
              ))}
            </fieldset>
            {errors.topics || errors.form ? (
              <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
                {errors.topics ?? errors.form}
              </p>
            ) : null}
            <div className="flex gap-2">
              <Button onClick={() => run(true)} disabled={reset.isPending}>
                Preview
              </Button>
              <Button
                variant="danger"
                onClick={() => run(false)}
                disabled={reset.isPending || plan === null || !plan.dryRun}
              >
                Apply reset
              </Button>
            </div>
          </fieldset>
          {plan ? <ResetPlanTable result={plan} /> : null}
        </div>
      </ActionGate>
    </Panel>
  );
}
