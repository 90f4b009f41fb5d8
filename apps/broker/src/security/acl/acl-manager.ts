import { type AclBinding, type AclBindingFilter, ErrorCode } from '@weir/protocol';
import { failureOf } from '../../errors/item-result';
import type { MetadataStore } from '../../metadata/metadata-store';
import { aclFilterMatches } from './acl-filter';
import { aclProblem } from './acl-validation';
import type { Authorizer } from './authorizer';

/** The outcome of one creation or one delete filter, as CreateAcls and DeleteAcls answer it. */
export interface AclItemResult {
  errorCode: number;
  errorMessage: string | null;
  /** The unexpected failure behind an UNKNOWN_SERVER_ERROR, for the request context to report. */
  cause?: unknown;
}

/** One delete filter's outcome: the ACLs it removed. */
export interface AclDeletion extends AclItemResult {
  deleted: AclBinding[];
}

/** One ACL to create, or the reason the request's entry could not even be read as one. */
export type AclCreation = { binding: AclBinding } | { problem: string };

/**
 * ACL management and the policy that uses the ACLs: the service side of CreateAcls, DescribeAcls
 * and DeleteAcls. ACLs live in the metadata store (group-committed, durable when answered); the
 * authorizer re-indexes them when the store's list changes.
 */
export class AclManager {
  constructor(
    private readonly store: Pick<MetadataStore, 'listAcls' | 'addAcls' | 'removeAcls'>,
    readonly authorizer: Authorizer,
  ) {}

  /**
   * Creates ACLs, per item: invalid ones are refused with INVALID_REQUEST, the rest are stored
   * together (an existing one is left as it is).
   */
  async createAcls(creations: readonly AclCreation[]): Promise<AclItemResult[]> {
    const results: AclItemResult[] = creations.map((creation) => {
      const problem = 'problem' in creation ? creation.problem : aclProblem(creation.binding);
      return problem === undefined
        ? { errorCode: ErrorCode.NONE, errorMessage: null }
        : { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: problem };
    });
    const valid = creations.flatMap((creation, index) =>
      'binding' in creation && results[index]!.errorCode === ErrorCode.NONE ? [creation.binding] : [],
    );
    if (valid.length === 0) return results;
    try {
      await this.store.addAcls(valid);
    } catch (error) {
      const { ok: _failed, ...failure } = failureOf(error);
      return results.map((result) => (result.errorCode === ErrorCode.NONE ? failure : result));
    }
    return results;
  }

  /** The stored ACLs the filter selects, in the order they were created. */
  describeAcls(filter: AclBindingFilter): AclBinding[] {
    return this.store.listAcls().filter((binding) => aclFilterMatches(filter, binding));
  }

  /**
   * Removes every ACL any filter selects, in one change; each filter's result lists the ACLs it
   * selected (one selected by two filters is listed by both, as in Kafka).
   */
  async deleteAcls(filters: readonly AclBindingFilter[]): Promise<AclDeletion[]> {
    let removed: AclBinding[];
    try {
      removed = await this.store.removeAcls((binding) =>
        filters.some((filter) => aclFilterMatches(filter, binding)),
      );
    } catch (error) {
      const { ok: _failed, ...failure } = failureOf(error);
      return filters.map(() => ({ ...failure, deleted: [] }));
    }
    return filters.map((filter) => ({
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      deleted: removed.filter((binding) => aclFilterMatches(filter, binding)),
    }));
  }
}
