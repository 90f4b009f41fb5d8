import { Count, DescriptionList, EmptyState, Panel, Timestamp } from '@weir/ui';
import type { ReactNode } from 'react';
import type { ClusterOverview } from '../../server/api/schemas/cluster';

type BrokerPanelProps = { broker: ClusterOverview['broker']; asOf: ReactNode };

/** Facts about the broker the gateway talks to; empty while it cannot be reached. */
export function BrokerPanel({ broker, asOf }: BrokerPanelProps) {
  return (
    <Panel title="Broker" actions={asOf}>
      {broker === null ? (
        <EmptyState title="Broker facts are unavailable">The health reasons say why.</EmptyState>
      ) : (
        <DescriptionList
          items={[
            { term: 'Node id', detail: <Count value={broker.nodeId} /> },
            { term: 'Cluster id', detail: <code className="font-mono text-xs">{broker.clusterId}</code> },
            { term: 'Version', detail: broker.version },
            { term: 'Started', detail: <Timestamp epochMs={broker.startedAtMs} /> },
            {
              term: 'Listeners',
              detail: broker.listeners.map((listener) => (
                <div key={listener.name} className="font-mono text-xs">
                  {listener.name} {listener.host}:{listener.port}
                </div>
              )),
            },
            { term: 'Connections', detail: <Count value={broker.connectionCount} /> },
          ]}
        />
      )}
    </Panel>
  );
}
