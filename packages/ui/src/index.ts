// The public surface of @weir/ui, listed by name so that every export is a deliberate choice.
export { AppHeader } from './app-header';
export { AppShell } from './app-shell';
export { BrandMark } from './brand-mark';
export { MetricTile } from './metric-tile';
export { NavLink } from './nav-link';
export { Panel } from './panel';
export { SideNav } from './side-nav';
export { StatusBadge, type StatusTone } from './status-badge';
export { ThemeScript } from './theme-script';
export { ThemeToggle } from './theme-toggle';
