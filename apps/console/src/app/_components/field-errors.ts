import type { ZodError } from 'zod';

/** Field messages keyed by the input path joined with dots ("partitions", "headers.0.key"). */
export type FieldErrors = Record<string, string>;

/** The first zod message per field, the way the gateway reports server-side issues too. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Parses a whole number typed into a text field; undefined for empty input, NaN for junk. */
export function parseWholeNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * Collapses nested paths onto their top-level field ("configs.retention.ms" → "configs"), for
 * forms that show one message per control.
 */
export function topLevelFieldErrors(fields: FieldErrors): FieldErrors {
  const collapsed: FieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const top = key.split('.')[0] || 'form';
    collapsed[top] ??= key === top ? message : `${key.slice(top.length + 1)}: ${message}`;
  }
  return collapsed;
}
