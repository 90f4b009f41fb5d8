import type { TextareaHTMLAttributes } from 'react';
import { classNames } from './class-names';
import { controlClassName } from './control-class-name';

/** A multi-line text input in a monospace font: it holds payloads, keys and JSON. */
export function TextArea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <textarea className={classNames(controlClassName, 'py-1.5 font-mono text-xs', className)} {...props} />
  );
}
