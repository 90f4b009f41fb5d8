/**
 * Waits for `work` for at most `timeoutMs`. The work is not cancelled when the time is up: the
 * caller exits the process instead, which is the only way to bound a shutdown that hangs.
 */
export async function withinTimeout(
  work: Promise<unknown>,
  timeoutMs: number,
): Promise<'completed' | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), timeoutMs);
  });
  try {
    return await Promise.race([work.then(() => 'completed' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
