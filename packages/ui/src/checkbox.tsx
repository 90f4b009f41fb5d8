import type { InputHTMLAttributes } from 'react';

type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string };

/** A checkbox with its label wrapped around it, so the whole text is the click target. */
export function Checkbox({ label, className, ...props }: CheckboxProps) {
  return (
    <label className={className ?? 'inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300'}>
      <input
        type="checkbox"
        className="size-3.5 rounded border-zinc-300 accent-teal-600 dark:border-zinc-600"
        {...props}
      />
      {label}
    </label>
  );
}
