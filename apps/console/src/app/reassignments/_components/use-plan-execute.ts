'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  MoveResults,
  ReassignmentPlan,
  ReassignmentPlanInput,
} from '../../../server/api/schemas/reassignments';
import { gatewayError } from '../../../trpc/errors';
import { useTRPC } from '../../../trpc/react';
import type { FieldErrors } from '../../_components/field-errors';

/**
 * Preview, then execute: the plan shown is the one submitted (its refused rows left out, and rows
 * whose target is what the partition has already), so Execute never sends something the user has
 * not seen. Clearing the plan on any edit is the caller's part (`reset`).
 */
export function usePlanExecute() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState<ReassignmentPlan | null>(null);
  const [results, setResults] = useState<MoveResults | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  /** MiB/s as typed; empty means no throttle (any earlier one is lifted). */
  const [throttleMiB, setThrottleMiB] = useState('');
  const onError = (error: unknown) => {
    const info = gatewayError(error);
    setErrors(Object.keys(info.fieldErrors).length > 0 ? info.fieldErrors : { form: info.message });
  };
  const planning = useMutation(trpc.reassignments.plan.mutationOptions({ onError }));
  const executing = useMutation(trpc.reassignments.execute.mutationOptions({ onError }));
  const submittable = (plan?.moves ?? []).filter(
    (move) => move.replicas.join() !== move.currentReplicas.join(),
  );

  return {
    plan,
    results,
    errors,
    setErrors,
    pending: planning.isPending || executing.isPending,
    throttleMiB,
    setThrottleMiB,
    submittable,
    reset() {
      setPlan(null);
      setResults(null);
    },
    preview(input: ReassignmentPlanInput) {
      setErrors({});
      setResults(null);
      planning.mutate(input, { onSuccess: setPlan });
    },
    execute() {
      if (submittable.length === 0) return;
      const mib = throttleMiB.trim() === '' ? null : Number(throttleMiB);
      if (mib !== null && !(Number.isFinite(mib) && mib > 0)) {
        setErrors({ throttle: 'a rate in MiB/s above 0, or empty for none' });
        return;
      }
      setErrors({});
      executing.mutate(
        {
          moves: submittable.map(({ topic, partition, replicas }) => ({ topic, partition, replicas })),
          throttleBytesPerSecond: mib === null ? null : Math.max(1, Math.round(mib * 1024 * 1024)),
        },
        {
          onSuccess: async (answer) => {
            setResults(answer);
            setPlan(null);
            await queryClient.invalidateQueries(trpc.reassignments.pathFilter());
          },
        },
      );
    },
  };
}
