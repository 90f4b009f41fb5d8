import { AppHeader, BrandMark, StatusBadge, ThemeToggle } from '@weir/ui';

/** The header: product name, the broker connection state (always "not connected" for now) and the theme toggle. */
export function ConsoleHeader() {
  return (
    <AppHeader
      title="Weir"
      mark={<BrandMark />}
      actions={
        <>
          <StatusBadge tone="neutral">Broker not connected</StatusBadge>
          <ThemeToggle />
        </>
      }
    />
  );
}
