import { expect, type Page, test } from '@playwright/test';
import { createUser, logIn } from './support/login-flows';
import { LOGIN_USERS, loginConsoleUrl } from './support/login-users';

// The grant-access wizard, the effective-permissions view and password changes, in the console's
// login mode against the secure broker (serve-console.ts --login): the broker's ACLs decide.

/** The row of a permissions table whose row header is the resource. */
function resourceRow(page: Page, table: string, resource: RegExp) {
  return page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: resource }) });
}

test('the admin grants consume access by intent, reads the effective permissions and changes the password', async ({
  page,
}) => {
  const base = loginConsoleUrl();
  const username = `wizard-${Date.now()}`;
  const newPassword = `new-secret-${Date.now()}`;
  await logIn(page, LOGIN_USERS.admin);

  const firstPassword = await test.step('create the user', () => createUser(page, username));

  await test.step('grant "consume orders with group g1" through the wizard', async () => {
    await page.goto(`${base}/acls`);
    await page.getByRole('button', { name: 'Grant access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant access' });
    await dialog.getByRole('radio', { name: 'Consume' }).check();
    await dialog.getByLabel('Principal').fill(`User:${username}`);
    await dialog.getByRole('button', { name: 'Preview ACLs' }).click();
    await expect(dialog.getByLabel('Topic', { exact: true })).toHaveAccessibleDescription(
      /Enter a topic name \(or a prefix\)\./,
    );
    await expect(dialog.getByLabel('Consumer group', { exact: true })).toHaveAccessibleDescription(
      /Enter the consumer group \(or a prefix\)\./,
    );
    await dialog.getByLabel('Topic', { exact: true }).fill('orders');
    await dialog.getByLabel('Consumer group', { exact: true }).fill('g1');
    await dialog.getByRole('button', { name: 'Preview ACLs' }).click();

    const preview = dialog.getByRole('table', { name: 'ACLs to grant' });
    await expect(preview.getByRole('row')).toHaveCount(4);
    await expect(preview.getByText('Will be created')).toHaveCount(3);
    await expect(preview).toContainText('TOPIC orders');
    await expect(preview).toContainText('GROUP g1');
    await dialog.getByRole('button', { name: 'Create 3 ACLs' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Created 3 ACLs.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    await page.getByLabel('Filter by principal').fill(`User:${username}`);
    await page.getByLabel('Filter by principal').press('Enter');
    const acls = page.getByRole('table', { name: 'ACLs' });
    await expect(acls.getByRole('row')).toHaveCount(4);
    await expect(acls.getByRole('row', { name: /GROUP g1 READ ALLOW/ })).toBeVisible();
    await expect(acls.getByRole('row', { name: /TOPIC orders DESCRIBE ALLOW/ })).toBeVisible();
    await expect(acls.getByRole('row', { name: /TOPIC orders READ ALLOW/ })).toBeVisible();
  });

  await test.step("open the user's effective permissions from the Users page", async () => {
    await page.goto(`${base}/users`);
    await page.getByRole('link', { name: `Effective permissions of ${username}` }).click();
    await expect(page).toHaveURL(/\/acls\/effective\?principal=User%3Awizard-/);
    await expect(page.getByTestId('permission-summary')).toContainText('Not a super user');

    const orders = resourceRow(page, 'Topics permissions', /^orders$/);
    await expect(orders.getByRole('button', { name: 'READ: allowed (ALLOW_ACL)' })).toBeVisible();
    await expect(orders.getByRole('button', { name: 'DELETE: denied (NO_MATCHING_ALLOW)' })).toBeVisible();
    const group = resourceRow(page, 'Consumer groups permissions', /^g1\b/);
    const groupRead = group.getByRole('button', { name: 'READ: allowed (ALLOW_ACL)' });
    await groupRead.click();
    await expect(groupRead).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('region', { name: 'Why READ on GROUP g1' })).toContainText(
      `ALLOW User:${username} READ GROUP:g1`,
    );

    await page.getByLabel('Search resources').fill('g1');
    await expect(page.getByRole('table', { name: 'Topics permissions' })).toBeHidden();
    await expect(page).toHaveURL(/q=g1/);
  });

  await test.step('change the password to a typed one, shown once', async () => {
    await page.goto(`${base}/users`);
    await page.getByRole('button', { name: `Change password of ${username}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByRole('radio', { name: 'Type one' }).check();
    await dialog.getByLabel('New password').fill('short');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect(dialog.getByLabel('New password')).toHaveAccessibleDescription(
      'A password has at least 8 characters.',
    );
    await dialog.getByLabel('New password').fill(newPassword);
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect(dialog.getByTestId('generated-password')).toHaveText(newPassword);
    await expect(dialog.getByRole('button', { name: 'Copy password' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the old password is refused and the new one logs in', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(firstPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('form', { name: 'Log in' }).getByRole('alert')).toHaveText(
      'Wrong username or password.',
    );
    await logIn(page, { username, password: newPassword });
  });

  await test.step('without a principal in the URL the user sees its own permissions', async () => {
    await page.goto(`${base}/acls/effective`);
    await expect(page.getByTestId('permission-summary')).toContainText(`User:${username}`);
    const orders = resourceRow(page, 'Topics permissions', /^orders$/);
    await expect(orders.getByRole('button', { name: 'READ: allowed (ALLOW_ACL)' })).toBeVisible();
  });
});

test("a user without DESCRIBE on the cluster cannot read another principal's permissions", async ({
  page,
}) => {
  await logIn(page, LOGIN_USERS.reader);
  await page.goto(`${loginConsoleUrl()}/acls/effective?principal=User:admin`);
  await expect(page.getByText('Could not read the effective permissions')).toBeVisible();
  await page.getByLabel('Principal', { exact: true }).fill('User:reader');
  await page.getByRole('button', { name: 'Show permissions' }).click();
  await expect(page.getByTestId('permission-summary')).toContainText('User:reader');
  const orders = resourceRow(page, 'Topics permissions', /^orders$/);
  await expect(orders.getByRole('button', { name: 'READ: allowed (ALLOW_ACL)' })).toBeVisible();
});
