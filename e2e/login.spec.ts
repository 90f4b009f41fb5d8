import { expect, request, test } from '@playwright/test';
import { createUser, logIn } from './support/login-flows';
import { LOGIN_USERS, loginConsoleUrl } from './support/login-users';

// The console in login mode against a broker whose client listener needs SASL and ACLs: people
// log in with a broker user, and the console acts as that user, so the broker's ACLs decide.

test('login shows field errors, refuses a wrong password and lets the admin in', async ({ page }) => {
  await page.goto(`${loginConsoleUrl()}/login`);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Enter a username.')).toBeVisible();
  await page.getByLabel('Username').fill(LOGIN_USERS.admin.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('form', { name: 'Log in' }).getByRole('alert')).toHaveText(
    'Wrong username or password.',
  );

  await logIn(page, LOGIN_USERS.admin);
  await page.goto(`${loginConsoleUrl()}/topics/orders`);
  await expect(page.getByRole('heading', { level: 1, name: 'orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete topic' })).toBeEnabled();
  await expect(page.getByRole('link', { name: 'Produce' })).toBeVisible();
  await expect(page.getByText('may not DELETE on topic orders')).toHaveCount(0);
  await expect(page.getByText(/^Read-only:/)).toHaveCount(0);
});

test('a read-only user sees no delete button, the API refuses the delete anyway, and a cookie dies with logout', async ({
  page,
  context,
}) => {
  const base = loginConsoleUrl();
  await logIn(page, LOGIN_USERS.reader);

  await test.step('the topic is readable; no delete or produce is offered, one compact line says why', async () => {
    await page.goto(`${base}/topics/orders`);
    await expect(page.getByRole('heading', { level: 1, name: 'orders' })).toBeVisible();
    const denied = page.getByRole('note').filter({ hasText: 'Read-only: no WRITE, DELETE on orders' });
    await expect(denied).toBeVisible();
    // The full reasons stay available: on hover (title) and in the line's text for screen readers.
    const reasons = [
      'User:reader may not WRITE on topic orders: its ACLs do not allow it.',
      'User:reader may not DELETE on topic orders: its ACLs do not allow it.',
    ];
    await expect(denied).toHaveAttribute('title', reasons.join('\n'));
    for (const reason of reasons) await expect(denied).toContainText(reason);
    await expect(page.getByRole('button', { name: 'Delete topic' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Produce' })).toHaveCount(0);
  });

  await test.step('the maintenance tab offers no destructive controls either', async () => {
    await page.goto(`${base}/topics/orders?tab=maintenance`);
    const addPartitions = page.getByRole('region', { name: 'Add partitions' });
    await expect(addPartitions).toContainText('User:reader may not ALTER on topic orders');
    await expect(addPartitions.getByRole('button')).toHaveCount(0);
    const deleteRecords = page.getByRole('region', { name: 'Delete records' });
    await expect(deleteRecords).toContainText('User:reader may not DELETE on topic orders');
    await expect(deleteRecords.getByRole('button')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Configuration' }).click();
    await expect(page.getByText('User:reader may not ALTER_CONFIGS on topic orders')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  });

  await test.step('a direct API delete is refused by the broker', async () => {
    const csrf = (await context.cookies()).find((cookie) => cookie.name === 'weir_csrf')?.value ?? '';
    const refused = await page.request.delete(`${base}/api/v1/topics/orders`, {
      headers: { 'x-weir-csrf': csrf },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ data: { brokerError: 'TOPIC_AUTHORIZATION_FAILED' } });
    // Without the CSRF header the change is refused before it reaches the broker.
    expect((await page.request.delete(`${base}/api/v1/topics/orders`)).status()).toBe(403);
  });

  const cookieHeader = (await context.cookies())
    .filter((cookie) => cookie.name.startsWith('weir_'))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
  const session = (await context.cookies()).find((cookie) => cookie.name === 'weir_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false, path: '/' });

  await test.step('logout', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  await test.step('the old cookie replayed is refused', async () => {
    const outsider = await request.newContext();
    const replayed = await outsider.get(`${base}/api/v1/topics`, { headers: { cookie: cookieHeader } });
    expect(replayed.status()).toBe(401);
    await outsider.dispose();
  });
});

test('the admin creates a user (password shown once) and an ACL, filters, and deletes both', async ({
  page,
}) => {
  const base = loginConsoleUrl();
  const username = `e2e-user-${Date.now()}`;
  await logIn(page, LOGIN_USERS.admin);

  await test.step('create a user; the generated password is shown once', async () => {
    await createUser(page, username);
    await expect(page.getByRole('table', { name: 'Users' })).toContainText(username);
  });

  await test.step('create an ACL for it and find it by principal', async () => {
    await page.goto(`${base}/acls`);
    await page.getByRole('button', { name: 'Create ACL' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create ACL' });
    await dialog.getByLabel('Principal').fill(`User:${username}`);
    await dialog.getByLabel('Resource name').fill('orders');
    await dialog.getByLabel('Operation').selectOption('WRITE');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.getByLabel('Filter by principal').fill(`User:${username}`);
    await page.getByLabel('Filter by principal').press('Enter');
    await expect(page).toHaveURL(/principal=User%3Ae2e-user-/);
    const table = page.getByRole('table', { name: 'ACLs' });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table).toContainText('WRITE');
  });

  await test.step('delete the ACL and the user by typing', async () => {
    await page.getByRole('button', { name: `Delete ALLOW User:${username} WRITE TOPIC:orders` }).click();
    const aclDialog = page.getByRole('dialog', { name: 'Delete ACL' });
    await aclDialog.getByLabel(`Type "User:${username}" to confirm`).fill(`User:${username}`);
    await aclDialog.getByRole('button', { name: 'Delete ACL' }).click();
    await expect(page.getByRole('table', { name: 'ACLs' })).not.toContainText('WRITE');

    await page.goto(`${base}/users`);
    await page.getByRole('button', { name: `Delete ${username}` }).click();
    const userDialog = page.getByRole('dialog', { name: 'Delete user' });
    await userDialog.getByLabel(`Type "${username}" to confirm`).fill(username);
    await userDialog.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('table', { name: 'Users' })).not.toContainText(username);
  });
});
