import { type ComponentProps, useId } from 'react';
import { Button } from './button';

type ActionButtonProps = ComponentProps<typeof Button> & {
  /**
   * Why the action is not available now (from the server's `allowedActions`). When set, the button
   * is disabled and the reason is shown under it and tied to it as its description.
   */
  disabledReason?: string | null | undefined;
};

/**
 * A button for an action the server may not allow. It stays visible when denied, so people learn
 * that the action exists and what stands in its way, instead of meeting a refusal after clicking.
 */
export function ActionButton({ disabledReason, disabled, ...props }: ActionButtonProps) {
  const hintId = useId();
  const blocked = typeof disabledReason === 'string' && disabledReason !== '';
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button {...props} disabled={disabled || blocked} aria-describedby={blocked ? hintId : undefined} />
      {blocked ? (
        <span id={hintId} className="max-w-xs text-right text-xs text-zinc-500 dark:text-zinc-400">
          {disabledReason}
        </span>
      ) : null}
    </span>
  );
}
