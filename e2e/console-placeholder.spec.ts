import { expect, type Page, test } from '@playwright/test';

// The placeholder console: its chrome, its theme switch and its health endpoint. These checks
// run against the production build served by `next start` (see playwright.config.ts).

const sectionLabels = ['Overview', 'Topics', 'Consumer groups', 'Brokers', 'Transactions', 'ACLs'];
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

test('shows the header and every console section, with only the overview available', async ({ page }) => {
  await page.goto('/');

  const header = page.getByRole('banner');
  await expect(header).toBeVisible();
  await expect(header).toContainText('Weir');
  await expect(header).toContainText('Broker not connected');

  const navigation = page.getByRole('navigation', { name: 'Console sections' });
  for (const label of sectionLabels) {
    await expect(navigation.getByText(label, { exact: true })).toBeVisible();
  }
  // Sections that are not built yet must not be links, so nobody lands on a 404.
  await expect(navigation.getByRole('link')).toHaveCount(1);
  await expect(navigation.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await expect(navigation.getByText('Soon', { exact: true })).toHaveCount(sectionLabels.length - 1);

  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cluster health' })).toContainText(
    'not connected to a broker',
  );
});

test.describe('in a light-preferring browser', () => {
  test.use({ colorScheme: 'light' });

  test('the toggle flips the dark class and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    const root = page.locator('html');
    await expect(root).not.toHaveClass(darkClass);

    const toggle = await hydratedThemeToggle(page);
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(root).toHaveClass(darkClass);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');

    await page.reload();
    await expect(root).toHaveClass(darkClass);

    await (await hydratedThemeToggle(page)).click();
    await expect(root).not.toHaveClass(darkClass);
  });
});

test.describe('in a dark-preferring browser', () => {
  test.use({ colorScheme: 'dark' });

  test('starts dark without a stored choice', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(darkClass);
    await expect(await hydratedThemeToggle(page)).toHaveAttribute('aria-pressed', 'true');
  });
});

test('GET /api/health answers with the service name', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(response.headers()['cache-control']).toContain('no-store');
  expect(await response.json()).toEqual({ status: 'ok', service: 'weir-console' });
});
