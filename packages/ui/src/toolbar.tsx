import type { ReactNode } from 'react';

type ToolbarProps = {
  /** Names the group of controls, e.g. "Topic filters". */
  label: string;
  children: ReactNode;
};

/**
 * A row of controls above a table. It is a labelled fieldset (role `group`), not an ARIA
 * `toolbar`: that role promises arrow-key navigation, which text inputs inside it would break.
 */
export function Toolbar({ label, children }: ToolbarProps) {
  return (
    <fieldset aria-label={label} className="m-0 flex min-w-0 flex-wrap items-center gap-2 border-0 p-0">
      {children}
    </fieldset>
  );
}
