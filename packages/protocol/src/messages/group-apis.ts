import type { ApiSchema } from '../schema/api';

/** Consumer-group, offset, coordinator, ListOffsets and SASL APIs. */
export const GROUP_APIS: readonly ApiSchema[] = [];
