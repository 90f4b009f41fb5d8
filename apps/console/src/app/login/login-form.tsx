'use client';

import { Button, Field, Input } from '@weir/ui';
import { type FormEvent, useState } from 'react';

type Errors = { username?: string; password?: string; form?: string };

/** Username and password, checked by the broker; field errors beside the fields. */
export function LoginForm() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Errors = {};
    if (username.trim() === '') local.username = 'Enter a username.';
    if (password === '') local.password = 'Enter the password.';
    if (local.username !== undefined || local.password !== undefined) return setErrors(local);
    setPending(true);
    try {
      const response = await fetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (response.ok) {
        window.location.assign('/');
        return;
      }
      const body = (await response.json().catch(() => ({}))) as {
        message?: string;
        issues?: { path: string; message: string }[];
      };
      const fields: Errors = {};
      for (const issue of body.issues ?? []) {
        if (issue.path === 'username' || issue.path === 'password') fields[issue.path] = issue.message;
      }
      setErrors({ ...fields, form: body.message ?? `Login failed (${response.status}).` });
    } catch {
      setErrors({ form: 'The console could not be reached.' });
    } finally {
      setPending(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Log in">
      <Field label="Username" error={errors.username}>
        {(control) => (
          <Input
            {...control}
            autoFocus
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
      </Field>
      <Field label="Password" error={errors.password}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      {errors.form === undefined ? null : (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {errors.form}
        </p>
      )}
      <Button variant="primary" type="submit" disabled={pending}>
        {pending ? 'Logging in…' : 'Log in'}
      </Button>
    </form>
  );
}
