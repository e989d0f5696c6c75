/**
 * The test clock against the real database connection. Mongoose judges a connection stale when the
 * clock says its last heartbeat is two heartbeat intervals old, and it reads that clock through `Date`,
 * which `freezeDate` fakes. A heartbeat seen while "now" was frozen an hour back therefore looks an hour
 * old once the real clock returns; a connection-level call (dropping the test database, listing
 * collections) made then must still run instead of waiting for a reconnect that never comes.
 */
import mongoose from 'mongoose';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';

// A heartbeat every half second (the driver's least), rather than every 10 s: the test waits for one.
useTestDatabase({ heartbeatFrequencyMS: 500 });

it('after a heartbeat seen under a clock frozen an hour back, connection-level calls still run', async () => {
  const clock = freezeDate(Date.now() - 60 * 60_000);
  try {
    await new Promise((resolve) => mongoose.connection.getClient().once('serverHeartbeatSucceeded', resolve));
  } finally {
    clock.restore();
  }
  await mongoose.connection.createCollection('clock_probe');
  const collections = await mongoose.connection.listCollections();
  expect(collections.map((c) => c.name)).toContain('clock_probe');
});
