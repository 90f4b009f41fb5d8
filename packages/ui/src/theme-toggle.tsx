'use client';

import { useSyncExternalStore } from 'react';
import { chooseTheme, readAppliedTheme, type Theme } from './theme';

/** Calls `onChange` whenever something (this toggle, the start-up script, devtools) flips the class. */
function subscribeToThemeClass(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/**
 * The server cannot know the visitor's theme, so it renders "unknown": no `aria-pressed` at all.
 * The attribute appears once React has hydrated, which also tells tests the button is live.
 */
function readServerTheme(): Theme | null {
  return null;
}

/**
 * A button that switches between light and dark and remembers the choice. The icons are chosen
 * by CSS (`dark:`), so they are right even before React hydrates; only `aria-pressed` needs state.
 */
export function ThemeToggle() {
  const theme = useSyncExternalStore<Theme | null>(subscribeToThemeClass, readAppliedTheme, readServerTheme);
  const isDark = theme === 'dark';
  return (
    <button
      type="button"
      aria-label="Dark mode"
      aria-pressed={theme === null ? undefined : isDark}
      title={theme === null ? 'Toggle dark mode' : isDark ? 'Switch to light mode' : 'Switch to dark mode'}
      onClick={() => chooseTheme(isDark ? 'light' : 'dark')}
      className="inline-flex size-8 items-center justify-center rounded-md text-zinc-500 transition-colors hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-teal-600 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
    >
      <MoonIcon />
      <SunIcon />
    </button>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4 dark:hidden">
      <path d="M17.3 12.9A7.5 7.5 0 0 1 7.1 2.7a7.5 7.5 0 1 0 10.2 10.2Z" />
    </svg>
  );
}

function SunIcon() {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      aria-hidden="true"
      className="hidden size-4 dark:block"
    >
      <circle cx="10" cy="10" r="3.4" />
      <path d="M10 1.8v2M10 16.2v2M1.8 10h2M16.2 10h2M4.2 4.2l1.4 1.4M14.4 14.4l1.4 1.4M4.2 15.8l1.4-1.4M14.4 5.6l1.4-1.4" />
    </svg>
  );
}
