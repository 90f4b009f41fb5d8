'use client';

import { skipToken, useQuery } from '@tanstack/react-query';
import { Checkbox, EmptyState, Input, Panel, Select, Toolbar } from '@weir/ui';
import { useQueryStates } from 'nuqs';
import { useTRPC } from '../../../../trpc/react';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { effectivePermissionsInput, effectivePermissionsParams, resourceTypes } from './effective-params';
import { filterResources, RESOURCE_TYPE_TITLES } from './permission-filters';
import { PermissionSummary } from './permission-summary';
import { PrincipalForm } from './principal-form';
import { ResourcePermissionsTable } from './resource-permissions-table';

type EffectivePermissionsViewProps = {
  /** The logged-in user's principal: whose permissions show when the URL names nobody. */
  viewerPrincipal: string | null;
};

/** One principal's effective permissions per resource, as the broker's authorizer decides them. */
export function EffectivePermissionsView({ viewerPrincipal }: EffectivePermissionsViewProps) {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(effectivePermissionsParams);
  const input = effectivePermissionsInput(params, viewerPrincipal);
  const query = useQuery(trpc.acls.effective.queryOptions(input ?? skipToken));
  const filters = { type: params.type, search: params.q, onlyAllowed: params.allowed };

  return (
    <>
      <Panel title="Whose permissions" actions={input ? <QueryAsOf query={query} /> : null}>
        <div className="flex flex-col gap-3">
          {/* Keyed so the form's fields follow the URL (back/forward, links from other pages). */}
          <PrincipalForm
            key={`${input?.principal ?? ''}|${input?.host ?? '*'}`}
            principal={input?.principal ?? ''}
            host={input?.host ?? '*'}
            onShow={(choice) => void setParams({ principal: choice.principal, host: choice.host })}
          />
          {query.data ? <PermissionSummary view={query.data} /> : null}
        </div>
      </Panel>
      {input === null ? (
        <EmptyState title="Choose a principal">
          Enter <code>User:&lt;name&gt;</code> to see what it may do on each resource.
        </EmptyState>
      ) : (
        <QueryState query={query} errorTitle="Could not read the effective permissions">
          {(view) => {
            const shown = filterResources(view.resources, filters);
            return (
              <div className="flex flex-col gap-4">
                <Toolbar label="Permission filters">
                  <Select
                    aria-label="Resource type"
                    value={params.type ?? ''}
                    onChange={(event) =>
                      void setParams({
                        type: resourceTypes.find((type) => type === event.target.value) ?? null,
                      })
                    }
                    options={[
                      { value: '', label: 'All resource types' },
                      ...resourceTypes.map((type) => ({ value: type, label: RESOURCE_TYPE_TITLES[type] })),
                    ]}
                  />
                  <Input
                    type="search"
                    aria-label="Search resources"
                    placeholder="Resource name contains…"
                    className="w-64"
                    value={params.q}
                    onChange={(event) => void setParams({ q: event.target.value })}
                  />
                  <Checkbox
                    label="Only resources where something is allowed"
                    checked={params.allowed}
                    onChange={(event) => void setParams({ allowed: event.target.checked })}
                  />
                </Toolbar>
                {shown.length === 0 ? (
                  <EmptyState title="No resources match">Change the filters to see more.</EmptyState>
                ) : (
                  resourceTypes.map((type) => {
                    const ofType = shown.filter((resource) => resource.resourceType === type);
                    if (ofType.length === 0) return null;
                    const title = RESOURCE_TYPE_TITLES[type];
                    return (
                      <Panel key={type} title={`${title} (${ofType.length})`} flush>
                        <ResourcePermissionsTable label={`${title} permissions`} resources={ofType} />
                      </Panel>
                    );
                  })
                )}
              </div>
            );
          }}
        </QueryState>
      )}
    </>
  );
}
