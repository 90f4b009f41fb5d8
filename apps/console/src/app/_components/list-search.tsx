import { Input } from '@weir/ui';
import { useRef } from 'react';

/** How a search change enters the browser history: a new entry, or in place of the current one. */
export type SearchHistory = 'push' | 'replace';

type ListSearchProps = {
  /** The search box's accessible name, e.g. "Search topics"; also its placeholder. */
  label: string;
  value: string;
  /**
   * Called on every keystroke. `history` is 'push' for the first change of an edit and 'replace'
   * for the keystrokes after it, until the box loses focus: one search is one Back step, not one
   * step per letter typed.
   */
  onSearch: (text: string, history: SearchHistory) => void;
};

/** A list's search box; "/" focuses it from anywhere on the page (see `SlashToSearch`). */
export function ListSearch({ label, value, onSearch }: ListSearchProps) {
  const editing = useRef(false);
  return (
    <Input
      type="search"
      aria-label={label}
      placeholder={`${label} (press /)`}
      className="w-72"
      value={value}
      onChange={(event) => {
        onSearch(event.target.value, editing.current ? 'replace' : 'push');
        editing.current = true;
      }}
      onBlur={() => {
        editing.current = false;
      }}
    />
  );
}
