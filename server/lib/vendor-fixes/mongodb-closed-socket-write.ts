/**
 * A command written to a connection whose socket has closed fails, instead of waiting for ever.
 *
 * The MongoDB driver that mongoose loads writes each command with `Connection.writeCommand`: it writes to the socket
 * and, when the socket says its buffer is full, waits for the socket's `drain` event and for nothing else. A socket
 * that has already ended (the database closed it) says exactly that, and never drains; having ended without an
 * error, it emits no `error` either. So the write waits for ever. When the write is the server monitor's heartbeat
 * (the database restarting at the wrong moment), the monitor never checks the server again: every call then answers
 * 503 and `/readyz` says not ready, long after the database is back, until the process restarts. `npm run soak` met
 * it (the database stopped under load); the monitor's socket was destroyed with one `drain` listener waiting on it.
 *
 * The change wraps `writeCommand`: it fails at once with the driver's own network error when the socket is already
 * destroyed, and as soon as the socket closes while the write waits. The driver then does what it does for any
 * network error: the monitor drops that connection and connects again at its next check, and an operation fails
 * with an error the app answers 503 (lib/errors.ts).
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { requirePatchedVersion } from './patched-versions';

interface DriverConnection {
  socket: Socket;
  id: number | '<monitor>';
  address: string;
  error: Error | null;
  writeCommand: (this: DriverConnection, command: unknown, options: unknown) => Promise<void>;
}

/** Where mongoose's own copy of the driver is found (mongoose pins its driver; it is not ours). */
const mongooseRequire = () => createRequire(createRequire(__filename).resolve('mongoose'));

/** The driver's Connection class and its network error, as mongoose loads them. */
export function driverConnection(): {
  Connection: { prototype: DriverConnection };
  MongoNetworkError: new (message: string) => Error;
} {
  const load = mongooseRequire();
  const { Connection } = load('mongodb/lib/cmap/connection') as { Connection: { prototype: DriverConnection } };
  const { MongoNetworkError } = load('mongodb') as { MongoNetworkError: new (message: string) => Error };
  return { Connection, MongoNetworkError };
}

const PATCHED = Symbol.for('knack.mongodb-closed-socket-write');

/** Puts the change in place, once per process; the server does not start on another version of the driver. */
export function useClosedSocketWriteFailure(): void {
  requirePatchedVersion('mongodb', 'server/lib/vendor-fixes/mongodb-closed-socket-write.ts', createRequire(__filename).resolve('mongoose'));
  const { Connection, MongoNetworkError } = driverConnection();
  const proto = Connection.prototype as DriverConnection & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const writeCommand = proto.writeCommand;
  proto.writeCommand = function (this: DriverConnection, command: unknown, options: unknown): Promise<void> {
    const closed = () => this.error ?? new MongoNetworkError(`connection ${this.id} to ${this.address} closed`);
    const { socket } = this;
    if (socket.destroyed) return Promise.reject(closed());
    return new Promise<void>((resolve, reject) => {
      const onClose = () => reject(closed());
      socket.once('close', onClose);
      writeCommand.call(this, command, options).then(
        (value) => {
          socket.off('close', onClose);
          resolve(value);
        },
        // The driver rejects with its own errors.
        (err: Error) => {
          socket.off('close', onClose);
          reject(err);
        },
      );
    });
  };
  proto[PATCHED] = true;
}
