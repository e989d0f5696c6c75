/**
 * Our change to the MongoDB driver mongoose loads (server/lib/vendor-fixes/mongodb-closed-socket-write.ts): a command
 * written to a connection whose socket the database has closed fails with the driver's network error, where the
 * driver as packaged waits for ever. The first test shows the packaged driver still waiting: when it fails, the
 * driver has fixed this itself, and the change can go.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import { driverConnection, useClosedSocketWriteFailure } from '../../server/lib/vendor-fixes/mongodb-closed-socket-write';
import { PATCHED_VERSIONS, installedVersion } from '../../server/lib/vendor-fixes/patched-versions';
import { waitUntil } from '../helpers/wait';

const mongooseRequire = createRequire(createRequire(__filename).resolve('mongoose'));
const { OpMsgRequest } = mongooseRequire('mongodb/lib/cmap/commands') as {
  OpMsgRequest: new (db: string, command: Record<string, unknown>, options: Record<string, unknown>) => unknown;
};
const { Connection, MongoNetworkError } = driverConnection();
const ConnectionClass = Connection as unknown as new (
  socket: net.Socket,
  options: Record<string, unknown>,
) => {
  socket: net.Socket;
  writeCommand(command: unknown, options: Record<string, unknown>): Promise<void>;
};
const packagedWrite = Connection.prototype.writeCommand;

let server: net.Server;
/** What the test server does with each connection. */
let onConnection: (socket: net.Socket) => void;
const serverSockets = new Set<net.Socket>();

beforeAll(async () => {
  server = net.createServer((socket) => {
    serverSockets.add(socket);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of serverSockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A driver connection to the test server, once its socket is open. */
async function connection() {
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return new ConnectionClass(socket, { id: 1, generation: 0 });
}

/** A connection whose socket the other end has closed: ended and destroyed, its `close` already past. */
async function closedByTheDatabase() {
  onConnection = (socket) => socket.end();
  const conn = await connection();
  await new Promise((resolve) => conn.socket.once('close', resolve));
  return conn;
}

const ping = () => new OpMsgRequest('admin', { ping: 1 }, {});
/** The write options of a connection that agreed on no compression (what the handshake leaves without compressors). */
const WRITE = { agreedCompressor: 'none' };
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      () => 'written',
      (err: Error) => err,
    ),
    new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms)),
  ]);

it('the driver as packaged waits for ever to write to a socket the database closed (remove the change when this fails)', async () => {
  const conn = await closedByTheDatabase();
  expect(await within(packagedWrite.call(conn as never, ping(), WRITE), 1_000)).toBe('still waiting');
});

describe('with the change', () => {
  beforeAll(() => useClosedSocketWriteFailure());

  it('a write to a socket the database closed fails with the driver’s network error', async () => {
    const conn = await closedByTheDatabase();
    const outcome = await within(conn.writeCommand(ping(), WRITE), 1_000);
    expect(outcome).toBeInstanceOf(MongoNetworkError);
    expect((outcome as Error).message).toMatch(/closed/);
  });

  it('a write to an open socket is written as before', async () => {
    const received: Buffer[] = [];
    onConnection = (socket) => socket.on('data', (chunk: Buffer) => received.push(chunk));
    const conn = await connection();
    expect(await within(conn.writeCommand(ping(), WRITE), 1_000)).toBe('written');
    // A wire message: its 16-byte header and the command.
    await waitUntil(() => Buffer.concat(received).length > 16);
    conn.socket.destroy();
  });

  it('is put in place once, however often it is asked for', () => {
    const once = Connection.prototype.writeCommand;
    useClosedSocketWriteFailure();
    expect(Connection.prototype.writeCommand).toBe(once);
    expect(once).not.toBe(packagedWrite);
  });
});

it('is written for the driver version mongoose loads, which package.json pins through its overrides', () => {
  expect(installedVersion('mongodb', createRequire(__filename).resolve('mongoose'))).toBe(PATCHED_VERSIONS.mongodb);
  const pkg = createRequire(__filename)('../../package.json') as { overrides: { mongoose: { mongodb: string } } };
  expect(pkg.overrides.mongoose.mongodb).toBe(PATCHED_VERSIONS.mongodb);
});
