import { expect, type Page, test } from '@playwright/test';
import { Admin } from '@weir/protocol';
import { withClient } from './support/sdk';

// Sort, page and search changes on a list are history entries (issue #21 item 13): Back walks
// through the earlier states of the list and stays in the console.

/** The topic list as the URL says it should be: its rows, in order, and the search box. */
type ListState = { names: string[]; search: string; query: Record<string, string> };

async function expectTopicList(page: Page, origin: string, state: ListState) {
  const table = page.getByRole('table', { name: 'Topics' });
  await expect(table.locator('tbody tr td:first-child')).toHaveText(state.names);
  await expect(page.getByRole('searchbox', { name: 'Search topics' })).toHaveValue(state.search);
  const url = new URL(page.url());
  expect(url.origin).toBe(origin);
  expect(url.pathname).toBe('/topics');
  expect(Object.fromEntries(url.searchParams)).toEqual(state.query);
}

test('Back restores the topic list after a sort, a page and a search', async ({ page }) => {
  const prefix = `e2e-history-${Date.now()}`;
  const topic = (suffix: string) => `${prefix}-${suffix}`;
  const names = ['a', 'b', 'c', 'd', 'e'].map(topic);
  await withClient((client) =>
    new Admin(client).createTopics(names.map((name) => ({ name, partitions: 1 }))),
  );

  // Two rows a page over just this test's topics, so other specs' topics cannot shift the rows.
  await page.goto(`/topics?q=${prefix}&size=2`);
  const origin = new URL(page.url()).origin;
  // The theme toggle renders aria-pressed once React has hydrated, so clicks reach their handlers.
  await expect(page.getByRole('button', { name: 'Dark mode' })).toHaveAttribute(
    'aria-pressed',
    /^(true|false)$/,
  );
  const initial = { names: [topic('a'), topic('b')], search: prefix, query: { q: prefix, size: '2' } };
  await expectTopicList(page, origin, initial);

  const table = page.getByRole('table', { name: 'Topics' });
  await table.getByRole('button', { name: /^Name/ }).click();
  const sorted = {
    names: [topic('e'), topic('d')],
    search: prefix,
    query: { q: prefix, size: '2', desc: 'true' },
  };
  await expectTopicList(page, origin, sorted);

  await page.getByRole('navigation', { name: 'Topic pages' }).getByRole('button', { name: 'Next' }).click();
  const paged = { names: [topic('c'), topic('b')], search: prefix, query: { ...sorted.query, page: '1' } };
  await expectTopicList(page, origin, paged);

  // Typed key by key: the first keystroke of the search adds a history entry and the next one
  // replaces it, so the whole search is one Back step. A new search starts at the first page.
  const search = page.getByRole('searchbox', { name: 'Search topics' });
  await search.focus();
  await search.press('End');
  await search.pressSequentially('-a');
  await expectTopicList(page, origin, {
    names: [topic('a')],
    search: topic('a'),
    query: { q: topic('a'), size: '2', desc: 'true' },
  });

  await page.goBack();
  await expectTopicList(page, origin, paged);
  await page.goBack();
  await expectTopicList(page, origin, sorted);
  await page.goBack();
  await expectTopicList(page, origin, initial);
});
