/**
 * Weir's mark: rough water above a low dam and calm water below it, which is what a weir does
 * to a river. It is decorative; the product name beside it carries the meaning for assistive
 * technology.
 */
export function BrandMark({ className = 'size-6' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" strokeLinecap="round" aria-hidden="true" className={className}>
      <rect width="24" height="24" rx="6" className="fill-teal-600 dark:fill-teal-500" />
      <path
        d="M5 8c1.75 0 1.75-1.5 3.5-1.5S10.25 8 12 8s1.75-1.5 3.5-1.5S17.25 8 19 8"
        className="stroke-white"
        strokeWidth="1.8"
      />
      <path d="M5 12.5h14" className="stroke-white" strokeWidth="2.6" />
      <path
        d="M5 17.5c2.3 0 2.3-.8 4.7-.8s2.3.8 4.6.8 2.4-.8 4.7-.8"
        className="stroke-white/60"
        strokeWidth="1.6"
      />
    </svg>
  );
}
