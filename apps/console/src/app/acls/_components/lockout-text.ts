import { showBidiControls } from '@weir/ui';
import type { AclLockoutEntryView } from '../../../server/api/schemas/acl-intents';
import type { AclOperationView } from '../../../server/api/schemas/acls';

/*
 * The lockout warning's sentences, kept apart from the markup so they are tested as text: one per
 * principal and resource, such as "User:bob loses Read, Describe on topic orders".
 */

/** `DESCRIBE_CONFIGS` as "Describe configs". */
export function operationWord(operation: AclOperationView): string {
  const words = operation.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const RESOURCE_WORD: Record<AclLockoutEntryView['resourceType'], string> = {
  TOPIC: 'topic',
  GROUP: 'group',
  CLUSTER: 'the cluster',
  TRANSACTIONAL_ID: 'transactional id',
};

function resourceText(entry: AclLockoutEntryView): string {
  const word = RESOURCE_WORD[entry.resourceType];
  return entry.resourceType === 'CLUSTER' ? word : `${word} ${showBidiControls(entry.resourceName)}`;
}

/** What the entry's principal loses, as one sentence without the final period. */
export function lockoutSentence(entry: AclLockoutEntryView): string {
  const operations = entry.operations.map(operationWord).join(', ');
  return `${showBidiControls(entry.principal)} loses ${operations} on ${resourceText(entry)}`;
}
