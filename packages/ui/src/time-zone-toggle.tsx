'use client';

import { useTimeZone } from './time-zone-provider';

/**
 * Switches every timestamp between UTC and the browser's zone. It is a pair of real radio buttons
 * styled as a segmented control, so the current choice is stated, not implied by a button label.
 */
export function TimeZoneToggle() {
  const { mode, setMode } = useTimeZone();
  return (
    <fieldset
      aria-label="Time zone"
      className="m-0 inline-flex min-w-0 rounded-md border border-zinc-200 p-0.5 text-xs dark:border-zinc-700"
    >
      {(['utc', 'local'] as const).map((option) => (
        <label
          key={option}
          className="relative cursor-pointer rounded px-2 py-0.5 font-medium text-zinc-600 hover:text-zinc-900 has-checked:bg-zinc-900 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-teal-600 dark:text-zinc-400 dark:has-checked:bg-zinc-100 dark:has-checked:text-zinc-900 dark:hover:text-zinc-100"
        >
          <input
            type="radio"
            name="weir-time-zone"
            value={option}
            checked={mode === option}
            onChange={() => setMode(option)}
            // Transparent but covering the label: the native radio keeps keyboard and pointer
            // behaviour, and it stays hit-testable for tests, unlike a visually hidden input.
            className="absolute inset-0 cursor-pointer appearance-none opacity-0"
          />
          {option === 'utc' ? 'UTC' : 'Local'}
        </label>
      ))}
    </fieldset>
  );
}
