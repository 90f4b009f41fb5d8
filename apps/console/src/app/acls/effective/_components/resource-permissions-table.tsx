'use client';

import { Badge, showBidiControls } from '@weir/ui';
import { Fragment, useState } from 'react';
import type { ResourcePermissionsView } from '../../../../server/api/schemas/effective-permissions';
import { RowLink } from '../../../_components/row-link';
import { OperationChip } from './operation-chip';
import { VerdictDetails } from './verdict-details';

type ResourcePermissionsTableProps = {
  /** Names the table, e.g. "Topics permissions". */
  label: string;
  resources: readonly ResourcePermissionsView[];
};

function resourceKey(resource: ResourcePermissionsView): string {
  return `${resource.resourceType}|${resource.patternType}|${resource.resourceName}`;
}

/** Where the console shows a resource, for existing topics and groups. */
function resourceHref(resource: ResourcePermissionsView): string | null {
  if (!resource.exists || resource.patternType !== 'LITERAL') return null;
  if (resource.resourceType === 'TOPIC') return `/topics/${encodeURIComponent(resource.resourceName)}`;
  if (resource.resourceType === 'GROUP') return `/groups/${encodeURIComponent(resource.resourceName)}`;
  return null;
}

/** What kind of entry a row is, when it is not simply an existing resource. */
function ResourceBadge({ resource }: { resource: ResourcePermissionsView }) {
  if (resource.patternType === 'PREFIXED') return <Badge title="ACLs name this prefix">prefix</Badge>;
  if (resource.resourceName === '*')
    return <Badge title="ACLs for every name of this type">every name</Badge>;
  if (resource.exists) return null;
  return (
    <Badge tone="warning" title="Only an ACL names it; the broker has no such resource now">
      not created
    </Badge>
  );
}

function ResourceName({ resource }: { resource: ResourcePermissionsView }) {
  const href = resourceHref(resource);
  const shown = showBidiControls(resource.resourceName);
  const name = resource.patternType === 'PREFIXED' ? `${shown}*` : shown;
  return (
    <span className="inline-flex items-center gap-1.5">
      {href ? <RowLink href={href}>{name}</RowLink> : <span className="font-mono text-xs">{name}</span>}
      <ResourceBadge resource={resource} />
    </span>
  );
}

/**
 * One row per resource and one chip per operation. A chip expands, under its row, the reason and
 * the ACLs that decided it; several can be open at once to compare.
 */
export function ResourcePermissionsTable({ label, resources }: ResourcePermissionsTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="overflow-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead className="bg-zinc-50 dark:bg-zinc-900">
          <tr>
            {['Resource', 'Operations'].map((header) => (
              <th
                key={header}
                scope="col"
                className="whitespace-nowrap border-zinc-200 border-b px-3 py-2 text-left font-medium text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400"
              >
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 bg-white dark:divide-zinc-800/70 dark:bg-zinc-950">
          {resources.map((resource) => {
            const key = resourceKey(resource);
            const open = resource.operations.filter((verdict) => expanded.has(`${key}|${verdict.operation}`));
            const resourceText = `${resource.resourceType} ${resource.resourceName}`;
            return (
              <Fragment key={key}>
                <tr className="hover:bg-zinc-50 dark:hover:bg-zinc-900/60">
                  <th scope="row" className="whitespace-nowrap px-3 py-1.5 text-left align-top font-normal">
                    <ResourceName resource={resource} />
                  </th>
                  <td className="px-3 py-1.5">
                    <span className="flex flex-wrap gap-1">
                      {resource.operations.map((verdict) => (
                        <OperationChip
                          key={verdict.operation}
                          verdict={verdict}
                          expanded={expanded.has(`${key}|${verdict.operation}`)}
                          onToggle={() => toggle(`${key}|${verdict.operation}`)}
                        />
                      ))}
                    </span>
                  </td>
                </tr>
                {open.length > 0 ? (
                  <tr>
                    <td colSpan={2} className="px-3 pb-2">
                      <div className="flex flex-col gap-1.5">
                        {open.map((verdict) => (
                          <VerdictDetails
                            key={verdict.operation}
                            resourceText={resourceText}
                            verdict={verdict}
                          />
                        ))}
                      </div>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
