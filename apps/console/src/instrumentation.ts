/**
 * Next.js calls `register` once when the server starts. The console logs how it runs there, so a
 * console open to everyone says so before its first request. `NEXT_RUNTIME` is Next's build-time
 * marker of the runtime being compiled, not configuration: the notice needs Node (the logger and
 * the environment module).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ env }, { gatewayLogger }, { logStartupNotice }] = await Promise.all([
    import('./env'),
    import('./server/logger'),
    import('./server/startup-notice'),
  ]);
  try {
    logStartupNotice(env(), gatewayLogger());
  } catch (error) {
    // A bad environment is reported where it is used (health, pages); start-up goes on.
    console.error(`weir-console: ${(error as Error).message}`);
  }
}
