import { expect, type Locator, type Page, test } from '@playwright/test';

// The console's chrome against a real broker: navigation, theme, time zone, the "/" shortcut and
// the health endpoint. Runs against the production build started by e2e/serve-console.ts.

const darkClass = /(^|\s)dark(\s|$)/;

/**
 * The toggle renders `aria-pressed` only after React has hydrated it. Waiting for the attribute
 * avoids clicking a button whose handler is not attached yet.
 */
async function hydratedThemeToggle(page: Page) {
  const toggle = page.getByRole('button', { name: 'Dark mode' });
  await expect(toggle).toHaveAttribute('aria-pressed', /^(true|false)$/);
  return toggle;
}

test('navigation links every section', async ({ page }) => {
  await page.goto('/');
  const navigation = page.getByRole('navigation', { name: 'Console sections' });
  for (const label of [
    'Overview',
    'Topics',
    'Consumer groups',
    'Brokers',
    'Replication',
    'Reassignments',
    'Transactions',
    'ACLs',
    'Users',
    'Audit log',
  ]) {
    await expect(navigation.getByRole('link', { name: label })).toBeVisible();
  }
  await expect(navigation.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  await navigation.getByRole('link', { name: 'Topics' }).click();
  await expect(page).toHaveURL(/\/topics$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Topics' })).toBeVisible();
  await expect(navigation.getByRole('link', { name: 'Topics' })).toHaveAttribute('aria-current', 'page');

  await navigation.getByRole('link', { name: 'Brokers' }).click();
  await expect(page.getByRole('table', { name: 'Brokers' })).toContainText('controller');
});

test('the overview states health as reasons, with broker facts and counts', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText('Broker healthy');
  const health = page.getByRole('region', { name: 'Cluster health' });
  await expect(
    health.getByRole('list', { name: 'Health reasons' }).getByRole('listitem').first(),
  ).toBeVisible();
  await expect(health.getByTestId('as-of')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Broker' })).toContainText('Cluster id');
  const resources = page.getByRole('region', { name: 'Resources' });
  await expect(resources.getByText('Partitions', { exact: true })).toBeVisible();
  // A healthy single broker: replication problems are tiles too, and read zero.
  await expect(resources.locator('dt:text-is("Under-replicated partitions") + dd')).toHaveText('0');
  await expect(resources.locator('dt:text-is("Offline partitions") + dd')).toHaveText('0');
});

test.describe('in a light-preferring browser', () => {
  test.use({ colorScheme: 'light' });

  test('the theme toggle flips the dark class and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    const root = page.locator('html');
    await expect(root).not.toHaveClass(darkClass);
    await (await hydratedThemeToggle(page)).click();
    await expect(root).toHaveClass(darkClass);
    await page.reload();
    await expect(root).toHaveClass(darkClass);
    await expect(await hydratedThemeToggle(page)).toHaveAttribute('aria-pressed', 'true');
    await (await hydratedThemeToggle(page)).click();
    await expect(root).not.toHaveClass(darkClass);
  });
});

test.describe('in a dark-preferring browser', () => {
  test.use({ colorScheme: 'dark' });

  test('starts dark without a stored choice', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(darkClass);
  });
});

test.describe('in a browser five and a half hours ahead of UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('the UTC/local toggle changes every rendered time and is remembered', async ({ page }) => {
    await page.goto('/');
    // The broker's start time, in the facts list (the panel's "as of" label is another <time>).
    const started = page.getByRole('region', { name: 'Broker' }).locator('dd time');
    await expect(started).toHaveText(/ UTC$/);
    const iso = await started.getAttribute('datetime');
    expect(iso).toMatch(/Z$/);

    await page.getByRole('radio', { name: 'Local' }).check();
    await expect(started).toHaveText(/ \+05:30$/);
    // The instant is the same; only its rendering moved.
    await expect(started).toHaveAttribute('datetime', iso!);
    await expect(page.getByRole('region', { name: 'Cluster health' }).getByTestId('as-of')).toHaveText(
      /\+05:30$/,
    );

    await page.reload();
    await expect(page.getByRole('radio', { name: 'Local' })).toBeChecked();
    await expect(started).toHaveText(/ \+05:30$/);
    await page.getByRole('radio', { name: 'UTC' }).check();
    await expect(started).toHaveText(/ UTC$/);
  });
});

test('"/" focuses the page search, but not while typing elsewhere', async ({ page }) => {
  await page.goto('/topics');
  const search = page.getByRole('searchbox', { name: 'Search topics' });
  await expect(search).toBeVisible();
  await expect(search).not.toBeFocused();
  await pressSlashUntilFocused(page, search);
  await expect(search).toHaveValue('');

  await page.goto('/groups');
  await pressSlashUntilFocused(page, page.getByRole('searchbox', { name: 'Search groups' }));
});

/**
 * The shortcut's listener exists once the page has hydrated, which a loaded machine can leave until
 * after the search box is visible (a CI run pressed "/" on /groups before it): "/" is pressed
 * again until the box has focus, and a press that moved the focus types nothing into it.
 */
async function pressSlashUntilFocused(page: Page, search: Locator): Promise<void> {
  await expect(async () => {
    await page.locator('body').press('/');
    await expect(search).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test('GET /api/health answers with the service name', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  // It also says whether the broker accepts the console's own credentials (issue 15, item 11).
  expect(await response.json()).toMatchObject({
    status: 'ok',
    service: 'weir-console',
    consoleCredentials: { status: 'accepted' },
  });
});
