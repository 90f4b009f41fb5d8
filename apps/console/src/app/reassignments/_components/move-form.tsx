'use client';

import { useQuery } from '@tanstack/react-query';
import { Field, Input, Panel, Select } from '@weir/ui';
import { useState } from 'react';
import { useTRPC } from '../../../trpc/react';
import type { FieldErrors } from '../../_components/field-errors';
import { parseIdList } from './id-list';
import { PlanSteps } from './plan-steps';
import { usePlanExecute } from './use-plan-execute';
import { useReassignDeniedReason } from './use-reassign-permission';

/** The most topics offered in the picker; a larger cluster is rare for a hand-made move. */
const TOPIC_CHOICES = 1000;

/**
 * Moves chosen by hand: a topic, its partitions ("0,1" or "0-3") and the target replicas for all
 * of them ("2,3,4", the first the preferred leader). Preview shows the plan; any edit clears it,
 * so Execute only submits a plan the user has seen.
 */
export function MoveForm() {
  const trpc = useTRPC();
  const topics = useQuery(trpc.topics.list.queryOptions({ limit: TOPIC_CHOICES, includeInternal: true }));
  const names = (topics.data?.topics ?? []).map((topic) => topic.name);
  const [topic, setTopic] = useState('');
  const [partitions, setPartitions] = useState('');
  const [replicas, setReplicas] = useState('');
  const [local, setLocal] = useState<FieldErrors>({});
  const flow = usePlanExecute();
  const deniedReason = useReassignDeniedReason();
  const chosen = topic === '' ? (names[0] ?? '') : topic;
  const edit = (setter: (value: string) => void) => (value: string) => {
    setter(value);
    flow.reset();
  };

  const preview = () => {
    const problems: FieldErrors = {};
    const parsedPartitions = parseIdList(partitions);
    const parsedReplicas = parseIdList(replicas);
    if (chosen === '') problems.topic = 'choose a topic';
    if ('problem' in parsedPartitions) problems.partitions = parsedPartitions.problem;
    if ('problem' in parsedReplicas) problems.replicas = parsedReplicas.problem;
    setLocal(problems);
    if (Object.keys(problems).length > 0 || 'problem' in parsedPartitions || 'problem' in parsedReplicas) {
      return;
    }
    flow.preview({
      moves: parsedPartitions.ids.map((partition) => ({
        topic: chosen,
        partition,
        replicas: parsedReplicas.ids,
      })),
    });
  };

  return (
    <Panel title="Move partitions">
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-start gap-3">
          <Field label="Topic" error={local.topic}>
            {(control) => (
              <Select
                {...control}
                value={chosen}
                onChange={(event) => edit(setTopic)(event.target.value)}
                options={names.map((name) => ({ value: name, label: name }))}
              />
            )}
          </Field>
          <Field label="Partitions" error={local.partitions} hint='e.g. "0" or "0,1" or "0-3"'>
            {(control) => (
              <Input
                {...control}
                className="w-36"
                value={partitions}
                onChange={(event) => edit(setPartitions)(event.target.value)}
              />
            )}
          </Field>
          <Field label="Target replicas" error={local.replicas} hint='e.g. "2,3,4"; the first leads'>
            {(control) => (
              <Input
                {...control}
                className="w-36"
                value={replicas}
                onChange={(event) => edit(setReplicas)(event.target.value)}
              />
            )}
          </Field>
        </div>
        <PlanSteps flow={flow} label="Move plan" onPreview={preview} deniedReason={deniedReason} />
      </div>
    </Panel>
  );
}
