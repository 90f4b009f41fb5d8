import type { ApiHandler } from './handler';

/**
 * The Weir-only APIs (keys 32000 and up) the internal listener serves beside the client
 * listener's Kafka APIs. The client listener never serves or advertises them.
 */
export function internalHandlers(): ApiHandler[] {
  return [];
}
