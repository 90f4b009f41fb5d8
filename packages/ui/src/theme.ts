/**
 * The console's colour theme lives in one place: the `dark` class on `<html>`. Tailwind's `dark:`
 * variant keys off that class, the toggle flips it, and the inline start-up script sets it before
 * the first paint. This module owns the class name and the storage key so those three agree.
 */

export type Theme = 'light' | 'dark';

export const themeClassName = 'dark';
export const themeStorageKey = 'weir.theme';

/** Reads the theme currently applied to the document. */
export function readAppliedTheme(): Theme {
  return document.documentElement.classList.contains(themeClassName) ? 'dark' : 'light';
}

/**
 * Applies a theme the user chose and remembers it. Storage can throw (private windows, quota,
 * disabled cookies); the choice then lasts only for this page, which is better than failing.
 */
export function chooseTheme(theme: Theme): void {
  document.documentElement.classList.toggle(themeClassName, theme === 'dark');
  try {
    window.localStorage.setItem(themeStorageKey, theme);
  } catch {
    // Remembering the choice is a convenience; the theme is already applied.
  }
}

/**
 * Source of the script that runs before the first paint. A stored choice wins; without one the
 * operating system's `prefers-color-scheme` decides. It is a string because it must run before
 * React hydrates, and it is built from the constants above so the key cannot drift.
 */
export const themeStartupScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(themeStorageKey)});var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle(${JSON.stringify(themeClassName)},d)}catch(e){}})();`;
