/**
 * The look shared by text inputs, selects and text areas, so every control lines up in a toolbar.
 * Invalid controls get a rose ring from `aria-invalid`, which the Field sets.
 */
export const controlClassName =
  'rounded-md border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/20 disabled:opacity-60 aria-invalid:border-rose-500 aria-invalid:ring-rose-500/20 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500';
