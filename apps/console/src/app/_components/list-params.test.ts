import { createLoader, parseAsBoolean } from 'nuqs/server';
import { describe, expect, it } from 'vitest';
import { listParams, listWindowInput } from './list-params';

const sortKeys = ['name', 'size'] as const;
const load = createLoader(listParams(sortKeys, 'name'));

describe('listParams', () => {
  it('reads a bare URL as the first page of the default order', () => {
    expect(load({})).toEqual({ q: '', sort: 'name', desc: false, page: 0, size: 50 });
  });

  it('reads every shared parameter by its URL name and ignores unknown sort keys', () => {
    expect(load({ q: 'ord', sort: 'size', desc: 'true', page: '2', size: '25' })).toEqual({
      q: 'ord',
      sort: 'size',
      desc: true,
      page: 2,
      size: 25,
    });
    expect(load({ sort: 'bogus' }).sort).toBe('name');
  });

  it('lets a list leave `desc` unset, for a direction that depends on the key', () => {
    const loadNullable = createLoader({ ...listParams(sortKeys, 'name'), desc: parseAsBoolean });
    expect(loadNullable({}).desc).toBeNull();
    expect(loadNullable({ desc: 'false' }).desc).toBe(false);
  });
});

describe('listWindowInput', () => {
  it('turns the page into an offset and an empty search into none', () => {
    expect(listWindowInput({ q: '', sort: 'size', desc: true, page: 3, size: 25 })).toEqual({
      search: undefined,
      sortBy: 'size',
      descending: true,
      offset: 75,
      limit: 25,
    });
  });

  it('takes the direction from the caller when given, else from `desc` (unset: ascending)', () => {
    const params = { q: 'a', sort: 'name' as const, desc: null, page: 0, size: 50 };
    expect(listWindowInput(params).descending).toBe(false);
    expect(listWindowInput(params, true)).toMatchObject({ search: 'a', descending: true });
  });
});
