import type { Metadata } from 'next';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Log in' };

export default function LoginPage() {
  return (
    <div className="mx-auto flex max-w-sm flex-col gap-4 py-16">
      <h1 className="text-xl font-semibold">Log in to Weir</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Use a broker user: the console acts as that user, so its ACLs decide what you can see and do.
      </p>
      <LoginForm />
    </div>
  );
}
