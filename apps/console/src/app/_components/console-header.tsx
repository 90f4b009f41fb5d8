import { AppHeader, BrandMark, ThemeToggle, TimeZoneToggle } from '@weir/ui';
import { BrokerStatus } from './broker-status';

/** The header: product name, the broker's health in a word, the time-zone and theme toggles. */
export function ConsoleHeader() {
  return (
    <AppHeader
      title="Weir"
      mark={<BrandMark />}
      actions={
        <>
          <BrokerStatus />
          <TimeZoneToggle />
          <ThemeToggle />
        </>
      }
    />
  );
}
