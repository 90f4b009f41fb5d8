import { formatCount } from './format-number';
import { Pager } from './pager';

type ListPagerProps = {
  /** Names the navigation landmark, e.g. "Topic pages". */
  label: string;
  /** The summary when the list has no rows at all, e.g. "No topics". */
  emptySummary: string;
  /** The page shown, counted from 0. */
  page: number;
  /** Rows per page. */
  size: number;
  /** Rows in the whole list, on every page. */
  total: number;
  onPageChange: (page: number) => void;
};

/**
 * Offset paging for a list the server pages: "51–100 of 1,204" between Previous and Next, each
 * disabled at its end of the list.
 */
export function ListPager({ label, emptySummary, page, size, total, onPageChange }: ListPagerProps) {
  const first = page * size;
  const last = Math.min(first + size, total);
  return (
    <Pager
      label={label}
      summary={
        total === 0 ? emptySummary : `${formatCount(first + 1)}–${formatCount(last)} of ${formatCount(total)}`
      }
      onPrevious={page > 0 ? () => onPageChange(page - 1) : undefined}
      onNext={last < total ? () => onPageChange(page + 1) : undefined}
    />
  );
}
