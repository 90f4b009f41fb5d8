'use client';

import { useQuery } from '@tanstack/react-query';
import { Field, Panel, Select } from '@weir/ui';
import { useQueryStates } from 'nuqs';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../../../trpc/react';
import { PlanSteps } from './plan-steps';
import { reassignmentParams } from './reassignment-params';
import { usePlanExecute } from './use-plan-execute';
import { useReassignDeniedReason } from './use-reassign-permission';

/**
 * Drain a broker: every replica it holds moves to another broker (its rack first, else the least
 * loaded), the remaining replicas keeping the lead. The broker comes from the URL (?drain=2), so
 * the Brokers page links here; arriving with one previews its plan straight away.
 */
export function DrainPanel() {
  const trpc = useTRPC();
  const brokers = useQuery(trpc.brokers.list.queryOptions({}));
  const [params, setParams] = useQueryStates(reassignmentParams);
  const flow = usePlanExecute();
  const deniedReason = useReassignDeniedReason();
  const ids = (brokers.data?.brokers ?? []).map((broker) => broker.nodeId);
  const chosen = params.drain ?? ids[0] ?? null;
  const previewed = useRef(false);
  const { preview } = flow;

  // A link from the Brokers page means "show me this drain": preview it once, on arrival.
  useEffect(() => {
    if (previewed.current || params.drain === null) return;
    previewed.current = true;
    preview({ drainBrokerId: params.drain });
  }, [params.drain, preview]);

  return (
    <Panel title="Drain broker">
      <div id="drain" className="flex flex-col gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          Moves every replica off one broker, for example before taking it out of the cluster.
        </p>
        <Field label="Broker">
          {(control) => (
            <Select
              {...control}
              className="w-40"
              value={chosen === null ? '' : String(chosen)}
              onChange={(event) => {
                void setParams({ drain: Number(event.target.value) });
                flow.reset();
              }}
              options={ids.map((id) => ({ value: String(id), label: `broker ${id}` }))}
            />
          )}
        </Field>
        <PlanSteps
          flow={flow}
          label="Drain plan"
          onPreview={() => {
            if (chosen !== null) flow.preview({ drainBrokerId: chosen });
          }}
          deniedReason={deniedReason}
        />
      </div>
    </Panel>
  );
}
