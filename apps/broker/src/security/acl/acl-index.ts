import { ACL_WILDCARD, type AclBinding, type AclResourceType } from '@weir/protocol';

/** The ACLs of one resource type, by literal name and by prefix. */
interface TypeIndex {
  readonly literal: Map<string, AclBinding[]>;
  readonly prefixed: Map<string, AclBinding[]>;
  /** The length of the longest prefix, so a lookup stops there instead of at the name's length. */
  longestPrefix: number;
}

/**
 * The ACLs indexed for the authorizer: the ACLs that apply to one resource are found with one
 * lookup per literal name (the name and `*`) and one per prefix length up to the longest stored
 * prefix, so a check costs the same with ten ACLs or ten thousand.
 */
export class AclIndex {
  readonly #types = new Map<AclResourceType, TypeIndex>();

  constructor(bindings: readonly AclBinding[]) {
    for (const binding of bindings) {
      let index = this.#types.get(binding.resourceType);
      if (index === undefined) {
        index = { literal: new Map(), prefixed: new Map(), longestPrefix: 0 };
        this.#types.set(binding.resourceType, index);
      }
      const byName = binding.patternType === 'LITERAL' ? index.literal : index.prefixed;
      const list = byName.get(binding.resourceName);
      if (list === undefined) byName.set(binding.resourceName, [binding]);
      else list.push(binding);
      if (binding.patternType === 'PREFIXED') {
        index.longestPrefix = Math.max(index.longestPrefix, binding.resourceName.length);
      }
    }
  }

  /** Every ACL that applies to the resource, whoever it names. */
  matching(resourceType: AclResourceType, name: string): AclBinding[] {
    const index = this.#types.get(resourceType);
    if (index === undefined) return [];
    const found: AclBinding[] = [];
    const add = (list: readonly AclBinding[] | undefined) => {
      if (list !== undefined) for (const binding of list) found.push(binding);
    };
    add(index.literal.get(name));
    if (name !== ACL_WILDCARD) add(index.literal.get(ACL_WILDCARD));
    const longest = Math.min(index.longestPrefix, name.length);
    for (let length = 1; length <= longest; length++) add(index.prefixed.get(name.slice(0, length)));
    return found;
  }

  /** Every ACL of a resource type (for checks "on any resource of this type"). */
  ofType(resourceType: AclResourceType): AclBinding[] {
    const index = this.#types.get(resourceType);
    if (index === undefined) return [];
    return [...index.literal.values(), ...index.prefixed.values()].flat();
  }
}
