import type { MoveResults } from '../../../server/api/schemas/reassignments';

/**
 * The broker's answer per partition after a submission or cancellation: how many it took, and
 * each refusal with its Kafka error name and the broker's message.
 */
export function MoveResultList({ results, verb }: { results: MoveResults; verb: 'started' | 'cancelled' }) {
  const refused = results.results.filter((row) => !row.ok);
  return (
    <div role="status" className="flex flex-col gap-1 text-sm">
      <p>
        {results.accepted} {results.accepted === 1 ? 'move' : 'moves'} {verb}
        {refused.length === 0 ? '.' : `; ${refused.length} refused by the broker:`}
      </p>
      {refused.length === 0 ? null : (
        <ul className="flex flex-col gap-0.5 text-rose-700 dark:text-rose-400">
          {refused.map((row) => (
            <li key={`${row.topic}\u0000${row.partition}`}>
              {row.topic}-{row.partition}: {row.error}
              {row.message === null ? '' : ` (${row.message})`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
