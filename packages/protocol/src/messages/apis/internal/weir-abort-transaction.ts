import { defineApi } from '../../../schema/api';
import { field } from '../../../schema/struct';
import { int16, string } from '../../../schema/types';

/**
 * WeirAbortTransaction (key 32005, Weir only), version 0: an operator aborts the open transaction
 * of a transactional id (a hanging one). The coordinator bumps the producer epoch, which fences the
 * producer that left it open, and writes ABORT markers to its partitions before answering. The
 * reason is required and logged with the caller's principal. Errors: TRANSACTIONAL_ID_NOT_FOUND,
 * INVALID_TXN_STATE (no open transaction), CONCURRENT_TRANSACTIONS (a commit or abort is being
 * written; retriable), INVALID_REQUEST (empty reason).
 */
export const WeirAbortTransaction = defineApi({
  apiKey: 32005,
  name: 'WeirAbortTransaction',
  versions: '0',
  flexibleVersions: '0+',
  request: {
    transactionalId: field(string),
    reason: field(string),
  },
  response: {
    errorCode: field(int16),
    errorMessage: field(string, { nullable: '0+', default: null }),
  },
});
