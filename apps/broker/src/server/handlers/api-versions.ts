import { ApiVersions } from '@weir/protocol';
import { type ApiHandler, defineHandler } from '../handler';

/** One advertised API with its version range. */
export interface AdvertisedApi {
  apiKey: number;
  minVersion: number;
  maxVersion: number;
}

/**
 * ApiVersions v0–3, derived from the handler registry so the broker advertises exactly what it
 * serves. v3 is the flexible request librdkafka sends first; its response still uses header v0,
 * and it carries no feature tags (a `transaction.version` there would switch Java clients to
 * KIP-890 transactions).
 */
export function createApiVersionsHandler<Services>(
  advertised: () => AdvertisedApi[],
): ApiHandler<typeof ApiVersions, Services> {
  return defineHandler<typeof ApiVersions, Services>({
    api: ApiVersions,
    versions: { min: 0, max: 3 },
    async handle() {
      return { errorCode: 0, apiKeys: advertised(), throttleTimeMs: 0 };
    },
  });
}
