import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ActionPermissionView } from '../../server/api/schemas/common';
import { ActionGates, aclDenialSummary, type GatedAction } from './action-gate';

const allowed: ActionPermissionView = { allowed: true, reason: null, deniedBy: null };

function deniedByAcls(operation: string): ActionPermissionView {
  return {
    allowed: false,
    reason: `User:reader may not ${operation} on topic orders: its ACLs do not allow it.`,
    deniedBy: 'acl',
  };
}

function render(actions: readonly GatedAction[]): string {
  return renderToStaticMarkup(createElement(ActionGates, { resource: 'orders', actions }));
}

const write = (permission: ActionPermissionView): GatedAction => ({
  operation: 'WRITE',
  permission,
  control: createElement('a', { href: '/produce' }, 'Produce'),
});
const remove = (permission: ActionPermissionView): GatedAction => ({
  operation: 'DELETE',
  permission,
  control: createElement('button', { type: 'button' }, 'Delete topic'),
});

describe('ActionGates', () => {
  it('offers every control the ACLs allow', () => {
    const html = render([write(allowed), remove(allowed)]);
    expect(html).toContain('Produce');
    expect(html).toContain('Delete topic');
    expect(html).not.toContain('role="note"');
  });

  it('keeps the full line when one action is denied', () => {
    const html = render([write(allowed), remove(deniedByAcls('DELETE'))]);
    expect(html).toContain('Produce');
    expect(html).not.toContain('Delete topic');
    expect(html).toContain('>User:reader may not DELETE on topic orders: its ACLs do not allow it.</span>');
  });

  it('puts several denials into one compact note that keeps the reasons', () => {
    const html = render([write(deniedByAcls('WRITE')), remove(deniedByAcls('DELETE'))]);
    expect(html).not.toContain('Produce');
    expect(html).not.toContain('Delete topic');
    expect(html.match(/role="note"/g)).toHaveLength(1);
    expect(html).toContain('Read-only: no WRITE, DELETE on orders');
    expect(html).toContain(
      'title="User:reader may not WRITE on topic orders: its ACLs do not allow it.\nUser:reader may not DELETE on topic orders: its ACLs do not allow it."',
    );
    expect(html).toContain('class="sr-only"');
  });
});

describe('aclDenialSummary', () => {
  it('says read-only only when nothing in the place is left', () => {
    expect(aclDenialSummary('orders', ['WRITE', 'DELETE'], true)).toBe(
      'Read-only: no WRITE, DELETE on orders',
    );
    expect(aclDenialSummary('orders', ['ALTER', 'DELETE'], false)).toBe(
      'Not allowed: ALTER, DELETE on orders',
    );
  });
});
