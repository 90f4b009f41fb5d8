import { ACL_WILDCARD, type AclBinding, CLUSTER_RESOURCE_NAME } from '@weir/protocol';

/**
 * Why an ACL cannot be created, or undefined when it can. Kafka's checks: a principal of the form
 * `User:<name>`, a host, a resource name, and the cluster only as `kafka-cluster` (LITERAL). The
 * types themselves were checked when the request was decoded (ANY and unknown ids are refused).
 */
export function aclProblem(binding: AclBinding): string | undefined {
  if (!/^User:.+/.test(binding.principal)) {
    return `principal "${binding.principal}" is not of the form User:<name>`;
  }
  if (binding.host.length === 0) return 'the host is empty (use * for any host)';
  if (binding.resourceName.length === 0) return 'the resource name is empty';
  if (binding.resourceType === 'CLUSTER') {
    if (binding.resourceName !== CLUSTER_RESOURCE_NAME || binding.patternType !== 'LITERAL') {
      return `the only valid name for the CLUSTER resource is ${CLUSTER_RESOURCE_NAME} (LITERAL)`;
    }
  }
  if (binding.patternType === 'PREFIXED' && binding.resourceName === ACL_WILDCARD) {
    // A PREFIXED "*" would only match names starting with "*"; LITERAL "*" is what is meant.
    return 'a PREFIXED pattern cannot be "*"; use LITERAL "*" for every resource';
  }
  return undefined;
}
