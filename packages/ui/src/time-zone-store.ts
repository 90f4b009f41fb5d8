import type { TimeZoneMode } from './format-time';

/**
 * The UTC/local choice, kept in localStorage and shared by every component through
 * `useSyncExternalStore`. A custom event tells subscribers in this tab; the `storage` event
 * tells other tabs.
 */
const storageKey = 'weir.timeZone';
const changeEvent = 'weir:time-zone';

export function readTimeZoneMode(): TimeZoneMode {
  try {
    return window.localStorage.getItem(storageKey) === 'local' ? 'local' : 'utc';
  } catch {
    return 'utc';
  }
}

/** The server has no visitor preference; UTC is also the default for a first visit. */
export function readServerTimeZoneMode(): TimeZoneMode {
  return 'utc';
}

export function writeTimeZoneMode(mode: TimeZoneMode): void {
  try {
    window.localStorage.setItem(storageKey, mode);
  } catch {
    // Remembering is a convenience; the event below still switches this page.
  }
  window.dispatchEvent(new Event(changeEvent));
}

export function subscribeToTimeZoneMode(onChange: () => void): () => void {
  window.addEventListener(changeEvent, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(changeEvent, onChange);
    window.removeEventListener('storage', onChange);
  };
}
