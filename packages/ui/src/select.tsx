import type { SelectHTMLAttributes } from 'react';
import { classNames } from './class-names';
import { controlClassName } from './control-class-name';

export type SelectOption = { value: string; label: string; disabled?: boolean };

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> & {
  options: readonly SelectOption[];
};

/** A native select: keyboard and screen-reader behaviour come for free and tests use selectOption. */
export function Select({ options, className, ...props }: SelectProps) {
  return (
    <select className={classNames(controlClassName, 'h-8 pr-7', className)} {...props}>
      {options.map((option) => (
        <option key={option.value} value={option.value} disabled={option.disabled}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
