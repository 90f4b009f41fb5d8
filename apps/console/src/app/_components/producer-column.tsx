import type { DataTableColumn } from '@weir/ui';

/**
 * The "Producer id / epoch" column of the tables that list producers: a topic's producers and the
 * transactions. The id is a decimal string (int64), shown as it is.
 */
export function producerColumn<
  Row extends { producerId: string; producerEpoch: number },
>(): DataTableColumn<Row> {
  return {
    id: 'producer',
    header: 'Producer id / epoch',
    align: 'right',
    cell: (row) => (
      <span className="font-mono text-xs tabular-nums">
        {row.producerId} / {row.producerEpoch}
      </span>
    ),
  };
}
