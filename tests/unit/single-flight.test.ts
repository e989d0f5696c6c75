/** lib/single-flight: callers asking for a key while its work runs share that work's one result. */
import { createSingleFlight } from '../../server/lib/single-flight';

describe('single flight', () => {
  it('when a key is asked while its work runs, then the work runs once, the callers share its result, and later callers start anew', async () => {
    const flights = createSingleFlight<string>();
    let runs = 0;
    let finish!: (value: string) => void;
    const work = () => {
      runs += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    const first = flights.run('k', work);
    const second = flights.run('k', work);
    const other = flights.run('other', async () => 'free');
    expect([first.joined, second.joined, other.joined]).toEqual([false, true, false]);
    finish('answer');
    expect(await Promise.all([first.result, second.result, other.result])).toEqual(['answer', 'answer', 'free']);
    expect(runs).toBe(1);

    const later = flights.run('k', async () => 'again');
    expect(later.joined).toBe(false);
    expect(await later.result).toBe('again');
  });

  it('when the work fails, then every caller gets the error and the next caller runs the work again', async () => {
    const flights = createSingleFlight<string>();
    const failing = flights.run('k', async () => Promise.reject(new Error('down')));
    const joined = flights.run('k', async () => 'not run');
    await expect(failing.result).rejects.toThrow('down');
    await expect(joined.result).rejects.toThrow('down');
    expect(await flights.run('k', async () => 'up').result).toBe('up');
  });
});
