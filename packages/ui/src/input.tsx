import type { InputHTMLAttributes } from 'react';
import { classNames } from './class-names';
import { controlClassName } from './control-class-name';

/** A text input. Give it a label through `Field`, or an `aria-label` when it stands alone. */
export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={classNames(controlClassName, 'h-8', className)} {...props} />;
}
