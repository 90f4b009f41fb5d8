import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { logIn } from './support/login-flows';
import { LOGIN_USERS, loginConsoleUrl } from './support/login-users';
import { seedTopic, startGroupMember } from './support/sdk';

// axe-core on the console's main pages, in light and dark mode, against a real broker with a
// topic, messages and a consumer group. Serious and critical violations fail the test (issue #21
// item 14: colour contrast below WCAG AA and malformed description lists).

// The console follows the browser's colour scheme until the user picks one with the toggle.
const darkClass = /(^|\s)dark(\s|$)/;
const notDarkClass = /^(?!.*\bdark\b)/;

const failingImpacts = new Set(['serious', 'critical']);

type PageUnderTest = { name: string; path: string; ready: (page: Page) => Promise<void> };

/** axe-core's serious and critical violations on the page as shown, one line each with its targets. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => failingImpacts.has(violation.impact ?? ''))
    .map((violation) => {
      // The first few elements are enough to find the rule's cause; the count says how many more.
      const targets = violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)} ${node.failureSummary ?? ''}`)
        .join(' | ');
      return `${where}: ${violation.id} [${violation.impact}] on ${violation.nodes.length} elements: ${targets}`;
    });
}

/** Every loading placeholder is gone, so axe sees the data rather than a spinner. */
async function noLoadingState(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

// One test per colour scheme: each visits eleven pages and runs axe on each, which takes more than
// a minute on a loaded two-core machine, so the schemes run in parallel with their own time limit.
for (const colorScheme of ['light', 'dark'] as const)
  test(`the main pages have no serious or critical axe violations, ${colorScheme}`, async ({ page }) => {
    test.setTimeout(240_000);
    const topic = `e2e-a11y-${colorScheme}-${Date.now()}`;
    const groupId = `${topic}-group`;
    await seedTopic(
      topic,
      2,
      Array.from({ length: 6 }, (_, index) => ({
        key: `key-${index}`,
        value: JSON.stringify({ index }),
        partition: index % 2,
      })),
    );
    const member = await startGroupMember(groupId, topic);
    await member.commitAt([0, 1].map((partition) => ({ partition, offset: 1n })));
    await member.close();

    const heading = (page: Page, name: string) =>
      expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const pages: PageUnderTest[] = [
      {
        name: 'overview',
        path: '/',
        ready: (p) => expect(p.getByRole('list', { name: 'Health reasons' })).toBeVisible(),
      },
      {
        name: 'topics',
        path: '/topics',
        ready: (p) => expect(p.getByRole('table', { name: 'Topics' })).toContainText(topic),
      },
      {
        name: 'topic',
        path: `/topics/${topic}`,
        ready: (p) => expect(p.getByRole('table', { name: 'Partitions' }).locator('tbody tr')).toHaveCount(2),
      },
      {
        name: 'messages',
        path: `/topics/${topic}/messages`,
        ready: (p) => expect(p.getByRole('status', { name: 'Search status' })).toContainText('Done'),
      },
      {
        name: 'groups',
        path: '/groups',
        ready: (p) => expect(p.getByRole('table', { name: 'Consumer groups' })).toContainText(groupId),
      },
      {
        name: 'group',
        path: `/groups/${groupId}`,
        ready: (p) => expect(p.getByTestId('total-lag')).toHaveText('4'),
      },
      { name: 'transactions', path: '/transactions', ready: (p) => heading(p, 'Transactions') },
      { name: 'acls', path: '/acls', ready: (p) => heading(p, 'ACLs') },
      { name: 'users', path: '/users', ready: (p) => heading(p, 'Users') },
      {
        name: 'audit',
        path: '/audit',
        ready: (p) => expect(p.getByRole('table', { name: 'Audit events' })).toContainText(topic),
      },
      {
        name: 'brokers',
        path: '/brokers',
        ready: (p) => expect(p.getByRole('table', { name: 'Brokers' })).toContainText('controller'),
      },
      {
        name: 'replication',
        path: '/replication',
        ready: (p) => expect(p.getByText('The cluster is healthy')).toBeVisible(),
      },
    ];

    const failures: string[] = [];
    await page.emulateMedia({ colorScheme });
    for (const entry of pages) {
      await test.step(`${entry.name} (${colorScheme})`, async () => {
        await page.goto(entry.path);
        await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? darkClass : notDarkClass);
        await entry.ready(page);
        await noLoadingState(page);
        failures.push(...(await seriousViolations(page, `${entry.name} (${colorScheme})`)));
      });
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

// The effective-permissions view needs the login-mode console (serve-console.ts --login), where the
// broker's ACLs decide: the reader's topics show allowed chips and grey "denied" chips.
test('the effective permissions view has no serious or critical axe violations, light and dark', async ({
  page,
}) => {
  await logIn(page, LOGIN_USERS.admin);
  const failures: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto(`${loginConsoleUrl()}/acls/effective?principal=User:reader`);
    await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? darkClass : notDarkClass);
    await expect(page.getByTestId('permission-summary')).toContainText('User:reader');
    await expect(page.getByRole('button', { name: /: denied \(NO_MATCHING_ALLOW\)$/ }).first()).toBeVisible();
    await noLoadingState(page);
    failures.push(...(await seriousViolations(page, `effective permissions (${colorScheme})`)));
  }
  expect(failures, failures.join('\n')).toEqual([]);
});
