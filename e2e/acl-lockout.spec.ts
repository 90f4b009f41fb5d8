import { expect, test } from '@playwright/test';
import { logIn } from './support/login-flows';
import { LOGIN_USERS, OPEN_ACL_USERS } from './support/login-users';
import { type OpenAclConsole, startOpenAclConsole } from './support/open-acl-console';

// The grant-access wizard's lockout warning against a broker that allows everyone where no ACL is
// found: granting alice consume on `orders`, which no ACL names, takes it from bob, and the review
// must say so and make the admin confirm before it creates anything.

let server: OpenAclConsole;

test.beforeAll(async () => {
  server = await startOpenAclConsole();
});

test.afterAll(async () => {
  await server?.stop();
});

test('the review names who loses access and Create waits for the confirmation', async ({ page }) => {
  const { alice, bob } = OPEN_ACL_USERS;
  await logIn(page, LOGIN_USERS.admin, server.url);

  await test.step('preview "alice consumes orders with group alice-app"', async () => {
    await page.goto(`${server.url}/acls`);
    await page.getByRole('button', { name: 'Grant access' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grant access' });
    await dialog.getByRole('radio', { name: 'Consume' }).check();
    await dialog.getByLabel('Principal').fill(`User:${alice.username}`);
    await dialog.getByLabel('Topic', { exact: true }).fill('orders');
    await dialog.getByLabel('Consumer group', { exact: true }).fill('alice-app');
    await dialog.getByRole('button', { name: 'Preview ACLs' }).click();
    await expect(
      dialog.getByRole('table', { name: 'ACLs to grant' }).getByText('Will be created'),
    ).toHaveCount(3);
  });

  const dialog = page.getByRole('dialog', { name: 'Grant access' });
  const create = dialog.getByRole('button', { name: 'Create 3 ACLs' });

  await test.step('the warning names bob, not the grantee nor the super user', async () => {
    const warning = dialog.getByRole('region', { name: 'Who loses access' });
    const losers = warning.getByRole('list', { name: 'Principals who lose access' });
    await expect(losers.getByRole('listitem')).toHaveText([
      `User:${bob.username} loses Read, Write, Create, Delete, Alter, Describe, Describe configs, Alter configs on topic orders.`,
    ]);
    await expect(warning.getByRole('list', { name: 'What the grantee loses' })).toContainText(
      `User:${alice.username} loses Write, Create, Delete, Alter, Describe configs, Alter configs on topic orders`,
    );
    await expect(warning).not.toContainText('User:admin');
    await expect(warning).toContainText('Checked for the 3 principals the broker knows');
  });

  await test.step('Create is enabled only once the lockout is confirmed', async () => {
    await expect(create).toBeDisabled();
    const confirm = dialog.getByRole('checkbox', {
      name: 'I understand that these principals lose this access',
    });
    await confirm.check();
    await expect(create).toBeEnabled();
    await confirm.uncheck();
    await expect(create).toBeDisabled();
    await confirm.check();
    await create.click();
    await expect(dialog.getByRole('status')).toHaveText('Created 3 ACLs.');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('the broker now refuses bob, as the warning said', async () => {
    await page.goto(`${server.url}/acls/effective?principal=User:${bob.username}`);
    const orders = page
      .getByRole('table', { name: 'Topics permissions' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: /^orders$/ }) });
    await expect(orders.getByRole('button', { name: 'READ: denied (NO_MATCHING_ALLOW)' })).toBeVisible();
  });

  await test.step('granting on orders, which has ACLs now, warns of nothing', async () => {
    await page.goto(`${server.url}/acls`);
    await page.getByRole('button', { name: 'Grant access' }).click();
    await dialog.getByRole('radio', { name: 'Consume' }).check();
    await dialog.getByLabel('Principal').fill(`User:${bob.username}`);
    await dialog.getByLabel('Topic', { exact: true }).fill('orders');
    await dialog.getByLabel('Consumer group', { exact: true }).fill('bob-app');
    await dialog.getByRole('button', { name: 'Preview ACLs' }).click();
    await expect(
      dialog.getByRole('table', { name: 'ACLs to grant' }).getByText('Will be created'),
    ).toHaveCount(3);
    await expect(dialog.getByRole('region', { name: 'Who loses access' })).toBeHidden();
    await expect(dialog.getByRole('button', { name: 'Create 3 ACLs' })).toBeEnabled();
  });
});
