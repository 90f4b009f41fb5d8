// The public surface of @weir/ui, listed by name so that every export is a deliberate choice.
export { ActionButton } from './action-button';
export { AppHeader } from './app-header';
export { AppShell } from './app-shell';
export { AsOfIndicator } from './as-of-indicator';
export { Badge, type BadgeTone } from './badge';
export { BrandMark } from './brand-mark';
export { Button, type ButtonSize, type ButtonVariant } from './button';
export { ByteSize } from './byte-size';
export { Checkbox } from './checkbox';
export { classNames } from './class-names';
export { ConfirmByTypingDialog } from './confirm-by-typing-dialog';
export { CopyButton } from './copy-button';
export { Count } from './count';
export { DataTable, type DataTableColumn, type SortDirection } from './data-table';
export { type DescriptionItem, DescriptionList } from './description-list';
export { Dialog } from './dialog';
export { EmptyState } from './empty-state';
export { ErrorState } from './error-state';
export { Field, type FieldControlProps } from './field';
export { formatBytes, formatCount } from './format-number';
export {
  formatTimeOfDay,
  formatTimestamp,
  parseDateTimeInput,
  type TimeZoneMode,
  toDateTimeInput,
} from './format-time';
export { Input } from './input';
export { ListPager } from './list-pager';
export { LoadingState } from './loading-state';
export { MetricTile } from './metric-tile';
export { type NavAnchorProps, NavLink } from './nav-link';
export { PageHeader } from './page-header';
export { Pager } from './pager';
export { Panel } from './panel';
export { ProgressBar } from './progress-bar';
export { Select, type SelectOption } from './select';
export { SideNav } from './side-nav';
export { Sparkline } from './sparkline';
export { StatusBadge, type StatusTone } from './status-badge';
export { type TabItem, Tabs } from './tabs';
export { TextArea } from './text-area';
export { ThemeScript } from './theme-script';
export { ThemeToggle } from './theme-toggle';
export { TimeZoneProvider, useTimeZone } from './time-zone-provider';
export { TimeZoneToggle } from './time-zone-toggle';
export { Timestamp } from './timestamp';
export { Toolbar } from './toolbar';
export { hasBidiControls, showBidiControls } from './visible-text';
