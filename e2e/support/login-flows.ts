import { expect, type Page } from '@playwright/test';
import { loginConsoleUrl } from './login-users';

/** Steps in the login-mode console (serve-console.ts --login) that several specs take. */

/**
 * Logs in as the browser does: a protected page sends the visitor to the login form, and once in,
 * the header names the user. The console is the `--login` server's unless `consoleUrl` names another.
 */
export async function logIn(
  page: Page,
  user: { username: string; password: string },
  consoleUrl = loginConsoleUrl(),
): Promise<void> {
  await page.goto(`${consoleUrl}/topics`);
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('session-user')).toHaveText(user.username);
}

/**
 * Creates a user in the Users page's dialog, as a logged-in admin, and answers the generated
 * password the dialog shows once.
 */
export async function createUser(page: Page, username: string): Promise<string> {
  await page.goto(`${loginConsoleUrl()}/users`);
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create user' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  const generated = dialog.getByTestId('generated-password');
  await expect(generated).toHaveText(/^[\w-]{32}$/);
  const password = (await generated.textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Done' }).click();
  return password;
}
