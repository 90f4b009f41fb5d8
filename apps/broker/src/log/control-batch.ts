import { decodeControlRecord, decodeRecordBatch } from '@weir/protocol';

/** A transaction marker's meaning, as the producer state needs it. */
export interface ControlMarker {
  type: 'commit' | 'abort';
  coordinatorEpoch: number;
}

/**
 * Reads the marker type of a control batch (one small uncompressed record, already CRC-checked).
 * Control types other than COMMIT and ABORT, or an unreadable record, give undefined: such a batch
 * still takes its offsets but changes no transaction state.
 */
export function readControlType(batch: Buffer): ControlMarker | undefined {
  const decoded = decodeRecordBatch(batch, { verifyCrc: false });
  if (!decoded.ok) return undefined;
  const first = decoded.value.records[0];
  if (!first) return undefined;
  const control = decodeControlRecord(first);
  if (!control.ok || control.value.type === 'unknown') return undefined;
  return { type: control.value.type, coordinatorEpoch: control.value.coordinatorEpoch };
}
