import { DecodeError, type DecodeResult, tryDecode } from '../codec/decode-error';
import { encodeRecordBatch } from './record-batch';

/**
 * Control records: the transaction markers (COMMIT and ABORT) the transaction coordinator writes
 * into every partition a transaction touched. A marker batch has the transactional and control
 * attribute bits set, base sequence -1 (markers do not move the producer's sequence), and exactly
 * one record whose
 * - key is int16 version (0) + int16 type (0 ABORT, 1 COMMIT), and whose
 * - value is int16 version (0) + int32 coordinator epoch.
 */

/** Which way a transaction ended. */
export type TransactionMarkerType = 'abort' | 'commit';

/** The meaning of one decoded control record. */
export type ControlRecord =
  | { type: TransactionMarkerType; coordinatorEpoch: number }
  /** A control type this codec does not interpret (KRaft uses types 2 and up); skip it. */
  | { type: 'unknown'; typeId: number };

/** Input of {@link encodeTransactionMarkerBatch}. */
export interface TransactionMarkerBatchInput {
  type: TransactionMarkerType;
  producerId: bigint;
  producerEpoch: number;
  /** The epoch of the transaction coordinator that wrote the marker. */
  coordinatorEpoch: number;
  timestampMs: number;
  /** Default 0; assigned by the log on append. */
  baseOffset?: bigint;
  /** Default -1. */
  partitionLeaderEpoch?: number;
}

const CONTROL_KEY_VERSION = 0;
const MARKER_VALUE_VERSION = 0;
const CONTROL_TYPE_ABORT = 0;
const CONTROL_TYPE_COMMIT = 1;
const CONTROL_KEY_BYTES = 4;
const MARKER_VALUE_BYTES = 6;

/** Encodes the 4-byte key of a control record. */
export function encodeControlRecordKey(typeId: number): Buffer {
  const key = Buffer.allocUnsafe(CONTROL_KEY_BYTES);
  key.writeInt16BE(CONTROL_KEY_VERSION, 0);
  key.writeInt16BE(typeId, 2);
  return key;
}

/** Encodes the 6-byte value of a transaction marker. */
export function encodeTransactionMarkerValue(coordinatorEpoch: number): Buffer {
  const value = Buffer.allocUnsafe(MARKER_VALUE_BYTES);
  value.writeInt16BE(MARKER_VALUE_VERSION, 0);
  value.writeInt32BE(coordinatorEpoch, 2);
  return value;
}

/** Encodes a complete marker batch: one control record, transactional and control bits set. */
export function encodeTransactionMarkerBatch(input: TransactionMarkerBatchInput): Buffer {
  const typeId = input.type === 'commit' ? CONTROL_TYPE_COMMIT : CONTROL_TYPE_ABORT;
  return encodeRecordBatch({
    records: [
      {
        key: encodeControlRecordKey(typeId),
        value: encodeTransactionMarkerValue(input.coordinatorEpoch),
        timestampMs: input.timestampMs,
      },
    ],
    baseOffset: input.baseOffset ?? 0n,
    partitionLeaderEpoch: input.partitionLeaderEpoch ?? -1,
    producerId: input.producerId,
    producerEpoch: input.producerEpoch,
    baseSequence: -1,
    isTransactional: true,
    isControl: true,
  });
}

/**
 * Interprets a record of a control batch. Like Kafka, a key version above 0 is read as version 0
 * (later versions only append fields); a negative version, a short key or a short marker value is
 * an error. Error offsets count from the start of the key or value at fault.
 */
export function decodeControlRecord(record: {
  key: Uint8Array | null;
  value: Uint8Array | null;
}): DecodeResult<ControlRecord> {
  return tryDecode(() => {
    const key = record.key;
    if (key === null || key.length < CONTROL_KEY_BYTES) {
      throw new DecodeError('truncated', `control record key of ${key?.length ?? 'null'} bytes`, 0);
    }
    const keyView = new DataView(key.buffer, key.byteOffset, key.byteLength);
    const version = keyView.getInt16(0);
    if (version < 0) throw new DecodeError('invalid-value', `control record key version ${version}`, 0);
    const typeId = keyView.getInt16(2);
    if (typeId !== CONTROL_TYPE_ABORT && typeId !== CONTROL_TYPE_COMMIT) return { type: 'unknown', typeId };
    const value = record.value;
    if (value === null || value.length < MARKER_VALUE_BYTES) {
      throw new DecodeError('truncated', `transaction marker value of ${value?.length ?? 'null'} bytes`, 0);
    }
    const valueView = new DataView(value.buffer, value.byteOffset, value.byteLength);
    const valueVersion = valueView.getInt16(0);
    if (valueVersion < 0) {
      throw new DecodeError('invalid-value', `transaction marker version ${valueVersion}`, 0);
    }
    return {
      type: typeId === CONTROL_TYPE_COMMIT ? 'commit' : 'abort',
      coordinatorEpoch: valueView.getInt32(2),
    };
  });
}
