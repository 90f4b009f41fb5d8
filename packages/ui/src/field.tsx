import { type ReactNode, useId } from 'react';

/** The ids a control needs to point at its label, hint and error. */
export type FieldControlProps = {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
};

type FieldProps = {
  label: string;
  /** A short hint under the control, e.g. the accepted range. */
  hint?: ReactNode;
  /** The validation message; the control is marked invalid and describes itself with it. */
  error?: string | undefined;
  className?: string;
  /** Renders the control with the ids that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
};

/**
 * A labelled form control with an optional hint and error. The error is announced through
 * `aria-describedby` and `aria-invalid`, so tests and screen readers find it from the control.
 */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ?? 'flex flex-col gap-1'}>
      <label htmlFor={id} className="font-medium text-xs text-zinc-700 dark:text-zinc-300">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <p id={errorId} className="text-rose-700 text-xs dark:text-rose-400">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
