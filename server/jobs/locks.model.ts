import { Schema, model } from 'mongoose';

/** One lease per job name: who runs it now, and until when (then anyone may take it). */
const lockSchema = new Schema(
  {
    _id: { type: String, required: true },
    holder: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
export const LockModel = model('Lock', lockSchema, 'locks');
