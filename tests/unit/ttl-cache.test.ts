import { createTtlCache } from '../../server/lib/ttl-cache';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('ttl cache', () => {
  let now = 1_000_000;
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  it('when a key is asked while it loads, then the callers share one load; within the TTL no load runs', async () => {
    const cache = createTtlCache(1_000);
    const loader = jest.fn(async () => 'a');
    const [x, y] = await Promise.all([cache.get('k', loader), cache.get('k', loader)]);
    expect([x, y, loader.mock.calls.length]).toEqual(['a', 'a', 1]);
    now += 999;
    await cache.get('k', loader);
    expect(loader).toHaveBeenCalledTimes(1);
    now += 2;
    await cache.get('k', loader);
    expect(loader).toHaveBeenCalledTimes(2);
  });

  it('when a value is stale but within staleMs, then it is answered at once and refreshed once in the background', async () => {
    const cache = createTtlCache(1_000, { staleMs: 10_000 });
    let version = 0;
    const loader = jest.fn(async () => (version += 1));
    expect(await cache.get('k', loader)).toBe(1);
    now += 5_000;
    expect(await Promise.all([cache.get('k', loader), cache.get('k', loader)])).toEqual([1, 1]);
    await settle();
    expect(loader).toHaveBeenCalledTimes(2);
    expect(await cache.get('k', loader)).toBe(2);
    now += 20_000;
    expect(await cache.get('k', loader)).toBe(3); // too old to answer: waits for a fresh load
  });

  it('when a value is set, then peek answers it at once until the TTL ends, and get answers it without loading', async () => {
    const cache = createTtlCache<string>(1_000);
    expect(cache.peek('k')).toBeUndefined();
    cache.set('k', 'kept');
    expect(cache.peek('k')).toBe('kept');
    const loader = jest.fn(async () => 'loaded');
    expect(await cache.get('k', loader)).toBe('kept');
    expect(loader).not.toHaveBeenCalled();
    now += 1_000;
    expect(cache.peek('k')).toBeUndefined();
    expect(await cache.get('k', loader)).toBe('loaded');
  });

  it('when a load is still running, then peek answers nothing; once it is done, its value', async () => {
    const cache = createTtlCache<string>(1_000);
    let finish!: (value: string) => void;
    const loading = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    expect(cache.peek('k')).toBeUndefined();
    finish('done');
    await loading;
    expect(cache.peek('k')).toBe('done');
  });

  it('when more keys are set than it keeps, then the oldest is forgotten first', () => {
    const cache = createTtlCache<number>(1_000, { maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([undefined, 2, 3]);
  });

  it('when a load fails, then it is not kept; clear() forgets every value', async () => {
    const cache = createTtlCache(1_000);
    await expect(cache.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await settle();
    expect(await cache.get('k', async () => 'up')).toBe('up');
    cache.clear();
    expect(await cache.get('k', async () => 'after clear')).toBe('after clear');
  });
});
