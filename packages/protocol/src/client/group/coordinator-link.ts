import { WeirError } from '../../errors/weir-error';
import type { ApiSchema, RequestOf, ResponseOf } from '../../schema/api';
import type { Client } from '../client';
import { ClosedError } from '../closed-error';
import type { Connection } from '../connection';
import { type CoordinatorAddress, isCoordinatorError } from './coordinator';
import type { CoordinatorConnector } from './group-consumer-options';
import type { CoordinatorSend } from './group-offsets';

/**
 * A connection of its own to a coordinator (a group's, or a transactional id's): found on first
 * use, found again after the coordinator moved or the connection closed. Coordinator traffic has a
 * connection of its own so heartbeats and transaction calls never queue behind a parked Fetch.
 */
export class CoordinatorLink {
  #current: { address: CoordinatorAddress; connection: Connection } | undefined;

  constructor(
    private readonly client: Client,
    /** Looks the coordinator up (FindCoordinator with the right key type). */
    private readonly find: () => Promise<CoordinatorAddress>,
    private readonly connect: CoordinatorConnector,
    /** True once the owner is closed: a lookup finishing then opens nothing. */
    private readonly isClosed: () => boolean,
  ) {}

  /** The coordinator in use, if one was found. */
  get address(): CoordinatorAddress | undefined {
    return this.#current?.address;
  }

  send<A extends ApiSchema>(api: A, body: RequestOf<A>, timeoutMs?: number): Promise<ResponseOf<A>> {
    return this.#connection().then((connection) =>
      connection.send(api, body, timeoutMs === undefined ? {} : { timeoutMs }),
    );
  }

  /** Runs coordinator requests with the client's retries, finding the coordinator again when it moved. */
  withRetries<T>(work: (send: CoordinatorSend) => Promise<T>): Promise<T> {
    return this.client.retry(async () => {
      try {
        return await work((api, body) => this.send(api, body));
      } catch (error) {
        if (error instanceof WeirError && isCoordinatorError(error.code)) this.drop();
        throw error;
      }
    });
  }

  /** Closes the connection; the next request looks the coordinator up again. */
  drop(): void {
    this.#current?.connection.close();
    this.#current = undefined;
  }

  async #connection(): Promise<Connection> {
    if (this.#current === undefined || this.#current.connection.status.state === 'closed') {
      const address = await this.find();
      if (this.isClosed()) throw new ClosedError('the coordinator link');
      this.#current?.connection.close();
      this.#current = { address, connection: this.connect(address) };
    }
    const connection = this.#current.connection;
    await connection.ready();
    return connection;
  }
}
