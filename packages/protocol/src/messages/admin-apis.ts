import type { ApiSchema } from '../schema/api';

/** Topic administration, configuration, ACL and transaction APIs. */
export const ADMIN_APIS: readonly ApiSchema[] = [];
