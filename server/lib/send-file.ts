/**
 * Sends a stored file's bytes as a browser and a media player expect them: an ETag (304 when the client's copy is
 * current), Last-Modified, Accept-Ranges with single byte ranges (206, or 416 for a range outside the file),
 * Content-Length, no body for HEAD, and the bytes streamed from the store (never read whole into memory).
 */
import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface ByteRange {
  start: number;
  end: number;
}

export interface FileToSend {
  size: number;
  /** Quoted, as it goes into the header: `"…"`. */
  etag: string;
  contentType: string;
  cacheControl: string;
  lastModified?: Date;
  /** The file's bytes, `start` to `end` inclusive when a range is given. */
  open(range?: ByteRange): Promise<Readable>;
}

/** A `Range: bytes=…` header's one range within a file of `size` bytes, or 'invalid' for one that cannot be served. */
export function parseRange(header: string, size: number): ByteRange | 'invalid' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return 'invalid';
  let start: number;
  let end: number;
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Whether If-None-Match names this ETag (a list of tags, weak ones included, or `*`). */
function clientHasCurrent(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

export async function sendFile(req: Request, res: Response, file: FileToSend): Promise<void> {
  res.setHeader('ETag', file.etag);
  if (file.lastModified) res.setHeader('Last-Modified', file.lastModified.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Cache-Control', file.cacheControl);
  if (clientHasCurrent(req, file.etag)) {
    res.status(304).end();
    return;
  }

  let range: ByteRange | undefined;
  if (req.headers.range) {
    const parsed = parseRange(req.headers.range, file.size);
    if (parsed === 'invalid') {
      res.setHeader('Content-Range', `bytes */${file.size}`);
      res.status(416).end();
      return;
    }
    range = parsed;
  }
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    res.setHeader('Content-Length', range.end - range.start + 1);
  } else {
    res.setHeader('Content-Length', file.size);
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const body = await file.open(range);
  await pipeline(body, res).catch(() => body.destroy());
}
