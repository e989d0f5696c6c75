/** lib/in-turn: writes of one key run one after another, in call order; a failure does not stop the next. */
import { inTurn } from '../../server/lib/in-turn';

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
