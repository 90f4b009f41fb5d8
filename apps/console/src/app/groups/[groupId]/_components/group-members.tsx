import { Count, DataTable, type DataTableColumn, Panel, showBidiControls } from '@weir/ui';
import type { GroupDetail } from '../../../../server/api/schemas/groups';

type Member = GroupDetail['members'][number];

const columns: readonly DataTableColumn<Member>[] = [
  {
    id: 'member',
    header: 'Member id',
    className: 'font-mono text-xs',
    cell: (m) => showBidiControls(m.memberId),
  },
  { id: 'client', header: 'Client id', cell: (m) => showBidiControls(m.clientId) },
  { id: 'host', header: 'Host', className: 'font-mono text-xs', cell: (m) => showBidiControls(m.clientHost) },
  {
    id: 'assignment',
    header: 'Assignment',
    className: 'whitespace-normal',
    cell: (m) =>
      m.assignment === null
        ? '—'
        : m.assignment.map((entry) => `${entry.topic} [${entry.partitions.join(', ')}]`).join('; ') ||
          'nothing',
  },
  {
    id: 'lag',
    header: 'Lag',
    align: 'right',
    cell: (m) => (m.lag === null ? '—' : <Count value={m.lag} />),
  },
];

/** The group's members, the partitions each was given, and the lag summed over those partitions. */
export function GroupMembers({ members }: { members: readonly Member[] }) {
  return (
    <Panel title="Members">
      <DataTable
        label="Members"
        columns={columns}
        rows={members}
        rowKey={(member) => member.memberId}
        empty="No members: the group is empty."
      />
    </Panel>
  );
}
