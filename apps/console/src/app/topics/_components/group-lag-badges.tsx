import { Badge, formatCount, showBidiControls } from '@weir/ui';
import Link from 'next/link';

type GroupLag = { groupId: string; lag: string };

/** Shown per row; the rest are summarised so a topic read by hundreds of groups stays one line. */
const visibleGroupCount = 3;

/** Group badges with their lag: amber while a group is behind, green once it has caught up. */
export function GroupLagBadges({ groups }: { groups: readonly GroupLag[] }) {
  if (groups.length === 0) return <span className="text-zinc-500 dark:text-zinc-400">—</span>;
  const hidden = groups.length - visibleGroupCount;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {groups.slice(0, visibleGroupCount).map((group) => (
        <Link key={group.groupId} href={`/groups/${encodeURIComponent(group.groupId)}`}>
          <Badge
            tone={group.lag === '0' ? 'success' : 'warning'}
            title={`Lag ${formatCount(group.lag)} records`}
          >
            {showBidiControls(group.groupId)}
            <span className="tabular-nums opacity-80">{formatCount(group.lag)}</span>
          </Badge>
        </Link>
      ))}
      {hidden > 0 ? <Badge>+{hidden} more</Badge> : null}
    </span>
  );
}
