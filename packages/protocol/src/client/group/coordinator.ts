import { ErrorCode } from '../../errors/error-codes';
import { errorForCode, WeirError } from '../../errors/weir-error';
import { FindCoordinator } from '../../messages/apis/find-coordinator';
import type { Client } from '../client';

/** Kafka's FindCoordinator key types. */
const GROUP_KEY_TYPE = 0;
const TRANSACTION_KEY_TYPE = 1;

/** Where a group's or a transactional id's coordinator is. */
export interface CoordinatorAddress {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
}

/**
 * Asks any broker which node coordinates `groupId`, retrying while the coordinator is loading or
 * not available (both retriable) within the client's retry policy.
 */
export function findGroupCoordinator(client: Client, groupId: string): Promise<CoordinatorAddress> {
  return findCoordinator(client, groupId, GROUP_KEY_TYPE, `Group "${groupId}".`);
}

/** Asks any broker which node coordinates the transactions of `transactionalId`. */
export function findTransactionCoordinator(
  client: Client,
  transactionalId: string,
): Promise<CoordinatorAddress> {
  return findCoordinator(
    client,
    transactionalId,
    TRANSACTION_KEY_TYPE,
    `Transactional id "${transactionalId}".`,
  );
}

function findCoordinator(
  client: Client,
  key: string,
  keyType: number,
  context: string,
): Promise<CoordinatorAddress> {
  return client.retry(async () => {
    const response = await client.send('any', FindCoordinator, { key, keyType });
    if (response.errorCode !== ErrorCode.NONE) {
      throw errorForCode(response.errorCode, response.errorMessage ?? context);
    }
    if (response.nodeId < 0) throw new WeirError(ErrorCode.COORDINATOR_NOT_AVAILABLE, { detail: context });
    return { nodeId: response.nodeId, host: response.host, port: response.port };
  });
}

/** Errors after which the coordinator must be looked up again. */
export function isCoordinatorError(code: number): boolean {
  return (
    code === ErrorCode.NOT_COORDINATOR ||
    code === ErrorCode.COORDINATOR_NOT_AVAILABLE ||
    code === ErrorCode.NETWORK_EXCEPTION ||
    code === ErrorCode.REQUEST_TIMED_OUT
  );
}
