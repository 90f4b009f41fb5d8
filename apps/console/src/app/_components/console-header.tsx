import { AppHeader, BrandMark, ThemeToggle, TimeZoneToggle } from '@weir/ui';
import { BrokerStatus } from './broker-status';
import { SessionMenu } from './session-menu';

/**
 * The header: product name, the broker's health in a word, the time-zone and theme toggles, and in
 * login mode the user with a logout button.
 */
export function ConsoleHeader({ username }: { username?: string | null }) {
  return (
    <AppHeader
      title="Weir"
      mark={<BrandMark />}
      actions={
        <>
          <BrokerStatus />
          <TimeZoneToggle />
          <ThemeToggle />
          {username ? <SessionMenu username={username} /> : null}
        </>
      }
    />
  );
}
