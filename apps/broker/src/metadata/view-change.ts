import type { ClusterView } from './cluster-view';

/**
 * Resolves at the view's next change, or after `timeoutMs`: what a writer whose compare-and-set lost
 * a race waits for, since the write that won is on its way to the view.
 */
export function nextViewChange(view: Pick<ClusterView, 'onChange'>, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const unfollow = view.onChange(done);
    function done(): void {
      clearTimeout(timer);
      unfollow();
      resolve();
    }
  });
}
