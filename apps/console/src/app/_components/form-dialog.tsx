import { Button, Dialog } from '@weir/ui';
import { type FormEvent, type ReactNode, useId } from 'react';

type FormDialogProps = {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  /** The submit button's label, and its label while the request runs. */
  submitLabel: string;
  pendingLabel: string;
  /** The request is under way: the submit button is disabled. */
  pending: boolean;
  /** A failure that belongs to no field, shown under the fields. */
  error?: string | undefined;
  /**
   * What the request made, to be read before the dialog closes (a password shown once): shown
   * instead of the form, with Done as the only button. Absent, or null, while there is none.
   */
  result?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
};

/**
 * A dialog around one form: the fields, the error that belongs to none of them, and a footer with
 * Cancel and the submit button, which says it is working while the request runs. Once there is a
 * `result`, the dialog shows that instead and closes with Done.
 */
export function FormDialog({
  open,
  title,
  onClose,
  onSubmit,
  submitLabel,
  pendingLabel,
  pending,
  error,
  result,
  children,
}: FormDialogProps) {
  const formId = useId();
  const done = result !== undefined && result !== null;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        done ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant="primary" type="submit" form={formId} disabled={pending}>
              {pending ? pendingLabel : submitLabel}
            </Button>
          </>
        )
      }
    >
      {done ? (
        result
      ) : (
        <form id={formId} noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
          {children}
          {error ? (
            <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
              {error}
            </p>
          ) : null}
        </form>
      )}
    </Dialog>
  );
}
