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

  it('holds no more keys than its budget allows, still updating the ones it has', async () => {
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
    await map.clear();
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

describe('KeyOffsetMap keys in place', () => {
  it('finds a key by its bytes wherever they lie, and tells apart keys that share a prefix', () => {
    const map = new KeyOffsetMap(100_000 * KEY_OFFSET_SLOT_BYTES);
    const buffer = Buffer.from('xxkey-17yy');
    expect(map.putAt(buffer, 2, 6, 40)).toBe(true);
    expect(map.get(key('key-17'))).toBe(40);
    expect(map.offsetAt(buffer, 2, 5)).toBe(-1);
    // Every length up to 40 bytes exercises the hash's blocks and each size of tail.
    for (let length = 0; length <= 40; length++) map.put(Buffer.alloc(length, 7), 1000 + length);
    for (let length = 0; length <= 40; length++) expect(map.get(Buffer.alloc(length, 7))).toBe(1000 + length);
    for (let index = 0; index < 50_000; index++) map.put(key(`user-${index}`), index);
    expect(map.size).toBe(50_000 + 41 + 1);
  });
});

describe('KeyOffsetMap.clear', () => {
  it('empties a map larger than one clearing slice, and confines the next fill to what it needs', async () => {
    const map = new KeyOffsetMap(16 * 1024 * 1024);
    for (let index = 0; index < 200_000; index++) map.put(key(`k${index}`), index);
    await map.clear(1000);
    expect(map.size).toBe(0);
    expect(map.latestOffset).toBe(-1);
    for (let index = 0; index < 200_000; index += 997) expect(map.get(key(`k${index}`))).toBeUndefined();
    expect(map.capacity).toBe(Math.floor((Math.ceil(1000 / 0.9) + 1) * 0.9));
    for (let index = 0; index < 1000; index++) expect(map.put(key(`n${index}`), index)).toBe(true);
    expect(map.get(key('n999'))).toBe(999);
  });
});
