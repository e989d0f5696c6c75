/**
 * Multipart uploads stream to a temporary file with the limits enforced while streaming (the request
 * is cut off as soon as a file grows past its limit). One file per request, in the field `file`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { MESSAGES } from '../../../generated/validation';
import { AppError } from '../../lib/errors';

export const DEFAULT_UPLOAD_TEMP_DIR = path.join(os.tmpdir(), 'knack-uploads');

export type UploadKind = 'image' | 'audio';

const LIMITS: Record<UploadKind, { bytes: number; message: string }> = {
  image: { bytes: 20 * 1024 * 1024, message: MESSAGES.imageTooLarge },
  audio: { bytes: 104_857_600, message: MESSAGES.audioTooLarge },
};

/** Streams each file to `dir` under a random name (never the client's). */
function tempStorage(dir: string): multer.StorageEngine {
  return multer.diskStorage({
    destination: (_req, _file, done) => {
      mkdirSync(dir, { recursive: true });
      done(null, dir);
    },
    filename: (_req, _file, done) => done(null, `${Date.now()}-${randomBytes(8).toString('hex')}.upload`),
  });
}

/**
 * busboy reports a body it cannot read (no boundary, cut off before the closing boundary, a broken part header such
 * as a NUL in the file name) as a plain Error. A failed disk write is a system error (it names its `syscall`) and a
 * TypeError is a bug: both are ours, and stay a 500.
 */
const isUnreadableBody = (err: unknown) => err instanceof Error && err.constructor === Error && !('syscall' in err);

const MALFORMED = 'The upload is not a well-formed multipart/form-data body.';

/**
 * Runs multer for one file of `kind` (streamed into `tempDir`) and maps its errors to 400/413. The temp file is removed before any
 * answer goes out (`storeTempFile`, or at once when the request is refused), so a client that hears back
 * never leaves a file behind; a request cut off midway has it removed when the connection closes.
 */
export function acceptOneFile(kind: UploadKind, tempDir: string): RequestHandler {
  const limit = LIMITS[kind];
  const parse = multer({ storage: tempStorage(tempDir), limits: { fileSize: limit.bytes, files: 1, fields: 5, fieldSize: 1024, parts: 6 } }).single('file');
  return (req: Request, res: Response, next: NextFunction) => {
    res.on('close', () => {
      if (req.file?.path) void rm(req.file.path, { force: true });
    });
    parse(req, res, (err?: unknown) => {
      const refuse = (error: unknown) => {
        if (!req.file?.path) return next(error);
        rm(req.file.path, { force: true }).then(() => next(error), next);
      };
      if (err instanceof multer.MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return refuse(new AppError(413, 'payload_too_large', limit.message));
        return refuse(new AppError(400, 'bad_request', MESSAGES.oneFile, [{ path: 'file', message: MESSAGES.oneFile }]));
      }
      if (isUnreadableBody(err)) return refuse(new AppError(400, 'bad_request', MALFORMED, [{ path: 'file', message: MALFORMED }]));
      if (err) return refuse(err);
      if (!req.file) return next(new AppError(400, 'bad_request', MESSAGES.oneFile, [{ path: 'file', message: MESSAGES.oneFile }]));
      next();
    });
  };
}

/** Hands the accepted temp file to `store` and removes it once `store` is done with it, whether it kept it or refused it. */
export async function storeTempFile<T>(file: Express.Multer.File, store: (file: Express.Multer.File) => Promise<T>): Promise<T> {
  try {
    return await store(file);
  } finally {
    await rm(file.path, { force: true });
  }
}

/** Names are kept only as metadata: no path, no control characters, at most 200 characters. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return (
    base
      .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
      .trim()
      .slice(0, 200) || 'file'
  );
}
