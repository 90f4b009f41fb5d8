import { Input } from '@weir/ui';

type ListSearchProps = {
  /** The search box's accessible name, e.g. "Search topics"; also its placeholder. */
  label: string;
  value: string;
  onSearch: (text: string) => void;
};

/** A list's search box; "/" focuses it from anywhere on the page (see `SlashToSearch`). */
export function ListSearch({ label, value, onSearch }: ListSearchProps) {
  return (
    <Input
      type="search"
      aria-label={label}
      placeholder={`${label} (press /)`}
      className="w-72"
      value={value}
      onChange={(event) => onSearch(event.target.value)}
    />
  );
}
