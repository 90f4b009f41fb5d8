import { describe, expect, it } from 'vitest';
import {
  batchRule,
  type CleanedBatch,
  KEY_NOT_IN_MAP,
  NO_KEY,
  type RecordRuleContext,
  recordSurvives,
} from './record-retention';

const data: CleanedBatch = {
  isControl: false,
  isAborted: false,
  isLastOfLiveProducer: false,
  transactionHasRecords: false,
};

/** The map read offsets up to 9. */
const retaining: RecordRuleContext = { mapLatestOffset: 9, retainDeletes: true };
const pastHorizon: RecordRuleContext = { mapLatestOffset: 9, retainDeletes: false };

describe('recordSurvives', () => {
  it('keeps the latest record of a key, drops older ones, and keeps records past the map', () => {
    expect(recordSurvives(0, 7, false, retaining)).toBe(false);
    expect(recordSurvives(7, 7, false, retaining)).toBe(true);
    expect(recordSurvives(12, KEY_NOT_IN_MAP, false, retaining)).toBe(true);
    expect(recordSurvives(12, NO_KEY, false, retaining)).toBe(true);
  });

  it('keeps a tombstone while deletes are retained, and drops it after', () => {
    expect(recordSurvives(9, 9, true, retaining)).toBe(true);
    expect(recordSurvives(9, 9, true, pastHorizon)).toBe(false);
    expect(recordSurvives(9, 9, false, pastHorizon)).toBe(true);
  });

  it('drops records without a key below the map’s end', () => {
    expect(recordSurvives(1, NO_KEY, false, retaining)).toBe(false);
  });
});

describe('batchRule', () => {
  it('drops an aborted transaction whole and decides data batches record by record', () => {
    expect(batchRule({ ...data, isAborted: true }, true)).toBe('drop-all');
    expect(batchRule({ ...data, isAborted: true, isLastOfLiveProducer: true }, true)).toBe('drop-all');
    expect(batchRule(data, false)).toBe('each-record');
  });

  it('keeps a marker while its transaction has records or deletes are retained', () => {
    const marker = { ...data, isControl: true };
    expect(batchRule({ ...marker, transactionHasRecords: true }, false)).toBe('keep-all');
    expect(batchRule(marker, true)).toBe('keep-all');
    expect(batchRule(marker, false)).toBe('drop-all');
  });
});
