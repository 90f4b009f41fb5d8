import { OverviewPanel } from './_components/overview-panel';

/** The overview page. It is a server component; interactive pieces are client leaves in @weir/ui. */
export default function OverviewPage() {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="font-semibold text-xl tracking-tight">Overview</h1>
        <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">
          The state of your cluster at a glance.
        </p>
      </div>
      <OverviewPanel />
    </div>
  );
}
