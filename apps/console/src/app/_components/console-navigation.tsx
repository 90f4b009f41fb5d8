import { NavLink, SideNav } from '@weir/ui';
import { consoleSections } from './console-sections';

/**
 * The side navigation. Only the overview exists so far, so it is always the active entry; once
 * there are more pages this reads the current path instead.
 */
export function ConsoleNavigation() {
  return (
    <SideNav label="Console sections">
      {consoleSections.map((section) => (
        <NavLink
          key={section.href}
          href={section.href}
          label={section.label}
          active={section.href === '/'}
          comingSoon={!section.available}
        />
      ))}
    </SideNav>
  );
}
