/**
 * The error a write gets when the `_id` (or another unique key) is already taken: the loser of a claim. MongoDB
 * answers code 11000 to inserts and updates alike; FerretDB 1.24 does for inserts, but an update that would repeat
 * a unique key fails there with SQLite's own message (code 1, "UNIQUE constraint failed").
 */
export const isDuplicateKey = (err: unknown) => {
  const { code, message } = (err ?? {}) as { code?: number; message?: string };
  return code === 11000 || (code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed'));
};
