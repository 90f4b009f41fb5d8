'use client';

import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import { formatTimestamp, type TimeZoneMode } from './format-time';
import {
  readServerTimeZoneMode,
  readTimeZoneMode,
  subscribeToTimeZoneMode,
  writeTimeZoneMode,
} from './time-zone-store';

type TimeZoneContextValue = {
  mode: TimeZoneMode;
  setMode: (mode: TimeZoneMode) => void;
  /** Formats epoch milliseconds in the chosen zone. */
  format: (epochMs: number) => string;
};

const TimeZoneContext = createContext<TimeZoneContextValue | null>(null);

/** Provides the one UTC/local choice that every timestamp, picker and "as of" label follows. */
export function TimeZoneProvider({ children }: { children: ReactNode }) {
  const mode = useSyncExternalStore(subscribeToTimeZoneMode, readTimeZoneMode, readServerTimeZoneMode);
  const value = useMemo<TimeZoneContextValue>(
    () => ({ mode, setMode: writeTimeZoneMode, format: (epochMs) => formatTimestamp(epochMs, mode) }),
    [mode],
  );
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}

export function useTimeZone(): TimeZoneContextValue {
  const value = useContext(TimeZoneContext);
  if (!value) throw new Error('useTimeZone must be used inside a TimeZoneProvider');
  return value;
}
