import { classNames } from '@weir/ui';
import { useId } from 'react';

export type Choice<Value extends string> = { value: Value; label: string; hint?: string };

type ChoiceGroupProps<Value extends string> = {
  /** Names the group (its legend), e.g. "Access". */
  legend: string;
  /** The radio inputs' shared name. */
  name: string;
  value: Value;
  choices: readonly Choice<Value>[];
  onChange: (value: Value) => void;
};

/**
 * One of a few options as native radio buttons in cards: the keyboard and screen readers get
 * radio semantics for free, and the hint under each label says what the option means.
 */
export function ChoiceGroup<Value extends string>({
  legend,
  name,
  value,
  choices,
  onChange,
}: ChoiceGroupProps<Value>) {
  const baseId = useId();
  return (
    <fieldset className="m-0 flex flex-col gap-1 border-0 p-0">
      <legend className="mb-1 font-medium text-xs text-zinc-700 dark:text-zinc-300">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {choices.map((choice) => {
          const checked = choice.value === value;
          // The label names the radio and the hint describes it, so "Consume" stays its whole name.
          const labelId = `${baseId}-${choice.value}-label`;
          const hintId = `${baseId}-${choice.value}-hint`;
          return (
            <label
              key={choice.value}
              className={classNames(
                'flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm',
                checked
                  ? 'border-teal-600 bg-teal-50 dark:border-teal-500 dark:bg-teal-500/10'
                  : 'border-zinc-300 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800',
              )}
            >
              <input
                type="radio"
                name={name}
                value={choice.value}
                checked={checked}
                onChange={() => onChange(choice.value)}
                aria-labelledby={labelId}
                aria-describedby={choice.hint ? hintId : undefined}
                className="mt-0.5 accent-teal-600"
              />
              <span className="flex flex-col">
                <span id={labelId} className="font-medium">
                  {choice.label}
                </span>
                {choice.hint ? (
                  <span id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
                    {choice.hint}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
