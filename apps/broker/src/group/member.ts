/** One protocol a member offers in JoinGroup (an assignor for consumers), in preference order. */
export interface MemberProtocol {
  name: string;
  metadata: Buffer;
}

/** A member of the leader's JoinGroup response. */
export interface JoinedMember {
  memberId: string;
  groupInstanceId: string | null;
  metadata: Buffer;
}

/** What a held (or immediate) JoinGroup answers. */
export interface JoinOutcome {
  errorCode: number;
  generationId: number;
  protocolName: string;
  leader: string;
  memberId: string;
  /** Every member with its metadata for the chosen protocol, for the leader only. */
  members: JoinedMember[];
}

/** What a held (or immediate) SyncGroup answers. */
export interface SyncOutcome {
  errorCode: number;
  assignment: Buffer;
}

export const EMPTY_BYTES: Buffer = Buffer.alloc(0);

/** A JoinGroup answer that carries only an error (and the member id the client should use). */
export function joinError(errorCode: number, memberId = ''): JoinOutcome {
  return { errorCode, generationId: -1, protocolName: '', leader: '', memberId, members: [] };
}

export function syncError(errorCode: number): SyncOutcome {
  return { errorCode, assignment: EMPTY_BYTES };
}

export interface MemberInit {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: MemberProtocol[];
}

/**
 * One member of a group. Besides what the member told us, it holds the callbacks of its parked
 * JoinGroup or SyncGroup request (the coordinator answers them when the rebalance gets there) and
 * the cancel function of its session timer.
 */
export class GroupMember {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: MemberProtocol[];
  /** The leader's assignment for this member; empty until the first SyncGroup of the leader. */
  assignment: Buffer = EMPTY_BYTES;
  awaitingJoin: ((outcome: JoinOutcome) => void) | undefined;
  awaitingSync: ((outcome: SyncOutcome) => void) | undefined;
  /** Cancels the session timer; undefined while no timer runs (a request of the member is held). */
  cancelSession: (() => void) | undefined;

  constructor(init: MemberInit) {
    this.memberId = init.memberId;
    this.groupInstanceId = init.groupInstanceId;
    this.clientId = init.clientId;
    this.clientHost = init.clientHost;
    this.sessionTimeoutMs = init.sessionTimeoutMs;
    this.rebalanceTimeoutMs = init.rebalanceTimeoutMs;
    this.protocolType = init.protocolType;
    this.protocols = init.protocols;
  }

  get isStatic(): boolean {
    return this.groupInstanceId !== null;
  }

  /** This member's metadata for `protocol`; empty bytes if it does not offer it (never expected). */
  metadataFor(protocol: string): Buffer {
    return this.protocols.find((offered) => offered.name === protocol)?.metadata ?? EMPTY_BYTES;
  }

  /** The member's most preferred protocol among `candidates`. */
  vote(candidates: ReadonlySet<string>): string | undefined {
    return this.protocols.find((offered) => candidates.has(offered.name))?.name;
  }

  /** Whether a rejoin carries exactly the protocols (names, order and metadata) we already have. */
  sameProtocols(protocolType: string, protocols: readonly MemberProtocol[]): boolean {
    if (protocolType !== this.protocolType || protocols.length !== this.protocols.length) return false;
    return protocols.every((protocol, index) => {
      const current = this.protocols[index]!;
      return current.name === protocol.name && current.metadata.equals(protocol.metadata);
    });
  }

  /** Answers a parked JoinGroup, if there is one. */
  answerJoin(outcome: JoinOutcome): void {
    const callback = this.awaitingJoin;
    this.awaitingJoin = undefined;
    callback?.(outcome);
  }

  /** Answers a parked SyncGroup, if there is one. */
  answerSync(outcome: SyncOutcome): void {
    const callback = this.awaitingSync;
    this.awaitingSync = undefined;
    callback?.(outcome);
  }

  stopSessionTimer(): void {
    this.cancelSession?.();
    this.cancelSession = undefined;
  }
}
