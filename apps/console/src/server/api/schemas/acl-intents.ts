import { z } from 'zod';
import {
  aclBindingSchema,
  aclOperationSchema,
  aclPatternTypeSchema,
  aclResourceTypeSchema,
  principalSchema,
} from './acls';
import { asOfMsSchema } from './common';

/*
 * ACL intents: what a person means ("let X produce to Y", "let X consume Y with group Z"), which
 * the gateway expands into the ACLs Kafka needs, as `kafka-acls --producer/--consumer` does.
 * One flat object for both kinds, so REST can carry it as a query string; the refinement names
 * the field that does not fit the kind.
 */

export const aclIntentKindSchema = z.enum(['produce', 'consume']);

/** A topic name or prefix, or `*` for every topic. */
const topicPatternNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter a topic name (or a prefix).')
  .max(249, 'A topic name has at most 249 characters.')
  .regex(/^(\*|[a-zA-Z0-9._-]+)$/, 'a topic name uses only letters, digits, ".", "_" and "-" (or is *)');

/** A group id or transactional id (any text), or its prefix, or `*`. */
function idPatternNameSchema(what: string) {
  return z
    .string()
    .trim()
    .min(1, `Enter a ${what} (or a prefix).`)
    .max(255, `A ${what} has at most 255 characters.`);
}

export const aclIntentSchema = z
  .object({
    kind: aclIntentKindSchema,
    principal: principalSchema,
    /** The client address the ACLs apply to; `*` for any. */
    host: z.string().trim().min(1, 'Enter a host, or * for any host.').max(255).default('*'),
    topic: topicPatternNameSchema,
    topicPattern: aclPatternTypeSchema.default('LITERAL'),
    /** `consume` only: the consumer group. */
    group: idPatternNameSchema('group id').optional(),
    groupPattern: aclPatternTypeSchema.default('LITERAL'),
    /** `produce` only: the transactional id of a transactional producer. */
    transactionalId: idPatternNameSchema('transactional id').optional(),
    transactionalIdPattern: aclPatternTypeSchema.default('LITERAL'),
    /** `produce` only: also allow IDEMPOTENT_WRITE on the cluster (idempotent producers). */
    idempotent: z.boolean().default(false),
  })
  .superRefine((intent, context) => {
    const problem = (field: string, message: string) =>
      context.addIssue({ code: 'custom', path: [field], message });
    if (intent.kind === 'consume') {
      if (intent.group === undefined) problem('group', 'Enter the consumer group (or a prefix).');
      if (intent.transactionalId !== undefined)
        problem('transactionalId', 'A transactional id belongs to a produce intent.');
      if (intent.idempotent) problem('idempotent', 'Idempotent writes belong to a produce intent.');
    } else if (intent.group !== undefined) {
      problem('group', 'A consumer group belongs to a consume intent.');
    }
    const prefixedStar = (name: string | undefined, pattern: string) =>
      name === '*' && pattern === 'PREFIXED';
    if (prefixedStar(intent.topic, intent.topicPattern))
      problem('topic', 'A prefix cannot be *: choose the literal pattern for every topic.');
    if (prefixedStar(intent.group, intent.groupPattern))
      problem('group', 'A prefix cannot be *: choose the literal pattern for every group.');
    if (prefixedStar(intent.transactionalId, intent.transactionalIdPattern))
      problem('transactionalId', 'A prefix cannot be *: choose the literal pattern for every id.');
  });

/** One ACL of an intent and whether the broker already has exactly it. */
export const aclIntentBindingSchema = aclBindingSchema.extend({ exists: z.boolean() });

/** What one principal loses on one resource once the intent's ACLs exist. */
export const aclLockoutEntrySchema = z.object({
  principal: z.string(),
  /** Whether it is the principal the intent names (it keeps what the intent grants, loses the rest). */
  grantee: z.boolean(),
  resourceType: aclResourceTypeSchema,
  /** The resource's name; for a PREFIXED entry of the broker's view, the prefix. */
  resourceName: z.string(),
  operations: z.array(aclOperationSchema),
});

/**
 * Who loses access when the intent creates the first ACLs on a resource (with
 * allow.everyone.if.no.acl.found on, a resource no ACL names is open to everyone; the first ACL
 * closes it to everyone it does not grant). Computed by the broker's effective-permissions engine
 * for the principals the broker knows: its SASL users and every principal an ACL names.
 */
export const aclLockoutSchema = z.object({
  /** The broker's allow.everyone.if.no.acl.found; false means creating ACLs never locks anyone out. */
  allowEveryoneIfNoAclFound: z.boolean(),
  /** The principals whose access was computed, sorted. */
  principalsChecked: z.array(z.string()),
  /** Known principals past the limit of how many one preview computes (0 normally). */
  principalsUnchecked: z.number().int(),
  /** Empty when nobody loses anything. */
  entries: z.array(aclLockoutEntrySchema),
});

export const aclIntentPreviewSchema = z.object({
  asOfMs: asOfMsSchema,
  bindings: z.array(aclIntentBindingSchema),
  lockout: aclLockoutSchema,
});

export const aclIntentApplyResultSchema = z.object({
  asOfMs: asOfMsSchema,
  /** How many ACLs were created now. */
  created: z.number().int(),
  /** How many the broker had already (left as they were). */
  alreadyPresent: z.number().int(),
  /** Every ACL of the intent; `exists` says whether it was there before this call. */
  bindings: z.array(aclIntentBindingSchema),
});

export type AclIntent = z.output<typeof aclIntentSchema>;
export type AclIntentInput = z.input<typeof aclIntentSchema>;
export type AclIntentBinding = z.infer<typeof aclIntentBindingSchema>;
export type AclIntentPreview = z.infer<typeof aclIntentPreviewSchema>;
export type AclLockout = z.infer<typeof aclLockoutSchema>;
export type AclLockoutEntryView = z.infer<typeof aclLockoutEntrySchema>;
export type AclIntentApplyResult = z.infer<typeof aclIntentApplyResultSchema>;
