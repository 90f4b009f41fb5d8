/**
 * Joins class names, skipping falsy entries, so components can add conditional classes without
 * template-literal noise. Tailwind conflicts are avoided by construction: callers add, never override.
 */
export function classNames(...parts: readonly (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(' ');
}
