/** lib/in-turn: writes of one key run one after another, in call order; a failure does not stop the next. */
import { inTurn } from '../../server/lib/in-turn';
import { createPerKeyQueue } from '../../server/lib/per-key-queue';

/** Gives the event loop a turn, as a real write's I/O would. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('inTurn', () => {
  it('when writes of one key are started together, then they run one at a time, in order; other keys do not wait', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const write = (key: string, name: string) =>
      inTurn(key, async () => {
        running += 1;
        most = Math.max(most, running);
        log.push(`${name}>`);
        await tick();
        log.push(`<${name}`);
        running -= 1;
        return name;
      });
    const other = inTurn('other', async () => 'free');
    expect(await Promise.all([write('a', 'one'), write('a', 'two'), write('a', 'three'), other])).toEqual(['one', 'two', 'three', 'free']);
    expect(log).toEqual(['one>', '<one', 'two>', '<two', 'three>', '<three']);
    expect(most).toBe(1);
  });

  it('when a write fails, then its caller gets the error and the next write of the key still runs', async () => {
    const failed = inTurn('b', async () => {
      throw new Error('disk full');
    });
    const next = inTurn('b', async () => 'ok');
    await expect(failed).rejects.toThrow('disk full');
    await expect(next).resolves.toBe('ok');
  });
});

describe('a per-key queue', () => {
  it('when a caller leaves the line before its turn, then the caller after it still waits for the one whose turn it is', async () => {
    const queue = createPerKeyQueue();
    const first = queue.join('k');
    const second = queue.join('k');
    const third = queue.join('k');
    const log: string[] = [];
    void third.ready.then(() => log.push('third'));
    await first.ready;
    second.leave(); // gave up waiting
    await tick();
    expect(log).toEqual([]);
    first.leave();
    await third.ready;
    expect(log).toEqual(['third']);
    third.leave();
  });

  it('when a task runs in the line and fails, then its caller gets the error and the next task of the key runs', async () => {
    const queue = createPerKeyQueue();
    const failed = queue.run('k', async () => Promise.reject(new Error('busy')));
    const next = queue.run('k', async () => 'ran');
    await expect(failed).rejects.toThrow('busy');
    expect(await next).toBe('ran');
  });
});
