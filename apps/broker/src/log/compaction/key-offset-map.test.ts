import { describe, expect, it } from 'vitest';
import { KEY_OFFSET_SLOT_BYTES, KeyOffsetMap } from './key-offset-map';

const key = (text: string) => Buffer.from(text);

describe('KeyOffsetMap', () => {
  it('keeps the latest offset of each key', () => {
    const map = new KeyOffsetMap(1024);
    expect(map.put(key('a'), 0)).toBe(true);
    expect(map.put(key('b'), 1)).toBe(true);
    expect(map.put(key('a'), 2)).toBe(true);
    expect(map.get(key('a'))).toBe(2);
    expect(map.get(key('b'))).toBe(1);
    expect(map.get(key('c'))).toBeUndefined();
    expect(map.size).toBe(2);
    expect(map.latestOffset).toBe(2);
  });

  it('holds no more keys than its budget allows, still updating the ones it has', () => {
    // 10 slots, 9 usable at the default load factor.
    const map = new KeyOffsetMap(10 * KEY_OFFSET_SLOT_BYTES);
    expect(map.capacity).toBe(9);
    for (let index = 0; index < 9; index++) expect(map.put(key(`k${index}`), index)).toBe(true);
    expect(map.isFull).toBe(true);
    expect(map.put(key('new'), 100)).toBe(false);
    expect(map.get(key('new'))).toBeUndefined();
    expect(map.put(key('k3'), 101)).toBe(true);
    expect(map.get(key('k3'))).toBe(101);
    expect(map.latestOffset).toBe(101);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get(key('k3'))).toBeUndefined();
    expect(map.put(key('new'), 5)).toBe(true);
  });

  it('finds every key among many that collide on their first slot', () => {
    const map = new KeyOffsetMap(1000 * KEY_OFFSET_SLOT_BYTES);
    for (let index = 0; index < 800; index++) map.put(key(`key-${index}`), index * 2);
    for (let index = 0; index < 800; index++) expect(map.get(key(`key-${index}`))).toBe(index * 2);
    expect(map.size).toBe(800);
  });

  it('refuses a budget below one slot', () => {
    expect(() => new KeyOffsetMap(KEY_OFFSET_SLOT_BYTES - 1)).toThrow('at least 24 bytes');
  });
});
