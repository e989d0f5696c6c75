/**
 * Which database commands would read a whole collection on FerretDB. There, only a filter that is exactly
 * `{ _id: value }` reaches SQLite's index; every other filter (`$in` on `_id` included), every sort, count, distinct
 * and aggregation is done in FerretDB's own process over every document of the collection. So a command is bounded
 * only when it names one document by `_id`; the meter lists every other one, with its collection and filter.
 *
 * It listens to the driver's command events, which the connection gives only when made with `monitorCommands`
 * (`useTestDatabase({ monitorCommands: true })`).
 */
import mongoose from 'mongoose';

export interface Scan {
  collection: string;
  command: string;
  /** The filter (or the pipeline's first stage), as JSON, for the report. */
  filter: string;
}

type Command = Record<string, unknown>;

/** Whether a filter names exactly one document by `_id` (a value or `{ $eq: value }`). */
export function isByIdFilter(filter: unknown): boolean {
  if (!filter || typeof filter !== 'object') return false;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return false;
  const value = (filter as { _id: unknown })._id;
  if (value === null || typeof value !== 'object') return true;
  if (value instanceof mongoose.Types.ObjectId || (value as { _bsontype?: string })._bsontype === 'ObjectId') return true;
  const operators = Object.keys(value);
  return operators.length === 1 && operators[0] === '$eq';
}

const show = (value: unknown) => JSON.stringify(value ?? {}).slice(0, 160);

/** The scans one command makes (none for a command that reads nothing or only by `_id`). */
export function scansOf(name: string, command: Command): Scan[] {
  const collection = String(command[name]);
  switch (name) {
    case 'find':
      return isByIdFilter(command.filter) ? [] : [{ collection, command: name, filter: show(command.filter) }];
    case 'count':
    case 'distinct':
      return isByIdFilter(command.query) ? [] : [{ collection, command: name, filter: show(command.query) }];
    case 'findAndModify':
      return isByIdFilter(command.query) ? [] : [{ collection, command: name, filter: show(command.query) }];
    case 'aggregate': {
      const first = (command.pipeline as Command[] | undefined)?.[0];
      return first && '$match' in first && isByIdFilter(first.$match) ? [] : [{ collection, command: name, filter: show(first) }];
    }
    case 'update':
      return (command.updates as { q: unknown }[]).filter((u) => !isByIdFilter(u.q)).map((u) => ({ collection, command: name, filter: show(u.q) }));
    case 'delete':
      return (command.deletes as { q: unknown }[]).filter((d) => !isByIdFilter(d.q)).map((d) => ({ collection, command: name, filter: show(d.q) }));
    default:
      return [];
  }
}

export interface ReadMeter {
  /** The scans since the last `take()` (or the start), and a fresh start. */
  take(): Scan[];
  stop(): void;
}

/** Starts listing the scans of every command the test process sends to the database. */
export function startReadMeter(): ReadMeter {
  const client = mongoose.connection.getClient();
  if (!client.options.monitorCommands) throw new Error('The connection was made without monitorCommands: useTestDatabase({ monitorCommands: true })');
  let scans: Scan[] = [];
  const listener = (event: { commandName: string; command: Command }) => {
    scans.push(...scansOf(event.commandName, event.command));
  };
  client.on('commandStarted', listener);
  return {
    take() {
      const taken = scans;
      scans = [];
      return taken;
    },
    stop() {
      client.off('commandStarted', listener);
    },
  };
}

export interface ScanSpy {
  /** Each `find` and `findOne` on the collections since the spy started whose filter is not one document by `_id`. */
  scans(): Scan[];
  /** How many `find` and `findOne` calls the collections had in all. */
  reads(): number;
  restore(): void;
}

/**
 * Spies on `find` and `findOne` of the collections named, with no need for `monitorCommands`: mongoose's queries on
 * a model and our own calls on its collection (lib/query.ts) both go through the one collection object per name
 * that the connection keeps, so each read of the collection is seen, with its filter.
 */
export function spyOnScans(...names: string[]): ScanSpy {
  const spies = names.flatMap((name) => {
    const collection = mongoose.connection.collection(name);
    return (['find', 'findOne'] as const).map((command) => ({ name, command, spy: jest.spyOn(collection, command) }));
  });
  return {
    scans: () =>
      spies.flatMap(({ name, command, spy }) =>
        (spy.mock.calls as unknown[][]).filter(([filter]) => !isByIdFilter(filter)).map(([filter]) => ({ collection: name, command, filter: show(filter) })),
      ),
    reads: () => spies.reduce((sum, { spy }) => sum + spy.mock.calls.length, 0),
    restore: () => spies.forEach(({ spy }) => spy.mockRestore()),
  };
}
