'use client';

import { type ReactNode, useState } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { Field } from './field';
import { Input } from './input';

type ConfirmByTypingDialogProps = {
  open: boolean;
  title: string;
  /** What will happen, in words; name the resource in bold. */
  description: ReactNode;
  /** The exact text the user must type, usually the resource's name. */
  confirmationText: string;
  actionLabel: string;
  /** True while the action runs; the button is disabled to avoid a second request. */
  pending?: boolean;
  /** An error from the server, shown above the buttons. */
  error?: string | undefined;
  /** More fields the action needs (a reason, say), shown between the description and the typing field. */
  children?: ReactNode;
  /** False while those fields are incomplete: the action stays disabled even after the text matches. */
  ready?: boolean;
  onConfirm: () => void;
  onClose: () => void;
};

/**
 * A destructive action's last stop: the action button stays disabled until the user has typed the
 * resource's name exactly. Typing is slower than clicking on purpose.
 */
export function ConfirmByTypingDialog(props: ConfirmByTypingDialogProps) {
  const { open, title, description, confirmationText, actionLabel, pending, error, onConfirm, onClose } =
    props;
  const [typed, setTyped] = useState('');
  const matches = typed === confirmationText && props.ready !== false;
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Dialog
      open={open}
      title={title}
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" disabled={!matches || pending} onClick={onConfirm}>
            {pending ? 'Working…' : actionLabel}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <div className="text-zinc-700 leading-relaxed dark:text-zinc-300">{description}</div>
        {props.children}
        <Field label={`Type "${confirmationText}" to confirm`}>
          {(control) => (
            <Input
              {...control}
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && matches && !pending) onConfirm();
              }}
            />
          )}
        </Field>
        {error ? (
          <p role="alert" className="text-rose-700 text-sm dark:text-rose-400">
            {error}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
