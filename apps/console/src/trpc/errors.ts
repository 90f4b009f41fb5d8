import { TRPCClientError } from '@trpc/client';

/**
 * Reading what the gateway put into an error: its tRPC code, the Kafka code behind it and, for
 * invalid input, the message per field. The UI branches on these codes, never on message text.
 */
export type GatewayErrorInfo = {
  message: string;
  code: string | undefined;
  brokerCode: number | undefined;
  /** Messages keyed by the input path joined with dots, e.g. "partitions" or "headers.0.key". */
  fieldErrors: Record<string, string>;
};

/** What the gateway's errorFormatter adds to `data` (see server/api/trpc.ts). */
type ErrorData = {
  code?: unknown;
  brokerCode?: unknown;
  issues?: unknown;
};

function collectFieldErrors(data: ErrorData): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(data.issues)) return fields;
  for (const issue of data.issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') continue;
    // The first message per field is the most specific one zod reports.
    fields[issue.path] ??= issue.message;
  }
  return fields;
}

export function gatewayError(error: unknown): GatewayErrorInfo {
  if (error instanceof TRPCClientError) {
    const data = (error.data ?? {}) as ErrorData;
    return {
      message: error.message,
      code: typeof data.code === 'string' ? data.code : undefined,
      brokerCode: typeof data.brokerCode === 'number' ? data.brokerCode : undefined,
      fieldErrors: collectFieldErrors(data),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message, code: undefined, brokerCode: undefined, fieldErrors: {} };
}
