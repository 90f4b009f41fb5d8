'use client';

import { Badge, ByteSize, Count } from '@weir/ui';
import Link from 'next/link';
import type { BrokerRow } from '../../../server/api/schemas/brokers';
import { replicationHref } from '../../replication/_components/replication-params';

export const STATE_TONES = { live: 'success', unreachable: 'warning', gone: 'danger' } as const;

/** The broker's state, with why it is not live on hover. */
export function BrokerState({ broker }: { broker: BrokerRow }) {
  return (
    <Badge
      tone={STATE_TONES[broker.state]}
      {...(broker.stateDetail === null ? {} : { title: broker.stateDetail })}
    >
      {broker.state}
    </Badge>
  );
}

/** Each listener labelled, the client one (what clients use) first; the console's address if none answered. */
export function BrokerListeners({ broker }: { broker: BrokerRow }) {
  if (broker.listeners.length === 0) {
    return (
      <span className="font-mono text-xs" title="internal listener, from the cluster metadata">
        internal {broker.host}:{broker.port}
      </span>
    );
  }
  return (
    <span className="flex flex-col gap-0.5 font-mono text-xs">
      {broker.listeners.map((listener) => (
        <span key={listener.name}>
          <span className="text-zinc-500 dark:text-zinc-400">{listener.name}</span> {listener.host}:
          {listener.port}
        </span>
      ))}
    </span>
  );
}

/** How far below its even share a broker's leaderships must fall before the cell offers the election. */
const NOTABLE_SKEW_PERCENT = 25;

/**
 * "leads 14, even share 10, +40 %": the broker's leaders against an even spread. A broker leading
 * far fewer than its share is usually one that restarted and lost its leaderships, so the cell
 * then links to the partitions led by a non-preferred replica, where they can be elected back.
 */
export function LeaderSkew({ broker }: { broker: BrokerRow }) {
  const { evenShare, percent } = broker.leaderSkew;
  const tone = Math.abs(percent) >= NOTABLE_SKEW_PERCENT ? 'text-amber-700 dark:text-amber-400' : '';
  return (
    <span className="text-xs tabular-nums">
      leads <Count value={broker.leaderCount} />, even share {evenShare},{' '}
      <span className={tone}>
        {percent > 0 ? '+' : ''}
        {percent} %
      </span>
      {percent <= -NOTABLE_SKEW_PERCENT ? (
        <>
          {' '}
          <Link
            className="underline underline-offset-2"
            href={replicationHref({ state: 'non-preferred-leader' })}
            aria-label={`Elect preferred leaders: partitions led by a non-preferred replica (broker ${broker.nodeId} leads fewer than its share)`}
          >
            elect preferred leaders
          </Link>
        </>
      ) : null}
    </span>
  );
}

/** Bytes of the partition logs in each log directory, and the disk's free space when known. */
export function BrokerDisk({ broker }: { broker: BrokerRow }) {
  if (broker.logDirs === null) {
    return <span title={broker.logDirsError ?? undefined}>—</span>;
  }
  return (
    <span className="flex flex-col gap-0.5 text-xs">
      {broker.logDirs.map((dir) => (
        <span key={dir.path} title={dir.path}>
          <ByteSize bytes={dir.sizeBytes} /> in <Count value={dir.partitionCount} /> partitions
          {dir.usableBytes === null || dir.totalBytes === null ? null : (
            <>
              {' '}
              · <ByteSize bytes={dir.usableBytes} /> free of <ByteSize bytes={dir.totalBytes} />
            </>
          )}
        </span>
      ))}
    </span>
  );
}
