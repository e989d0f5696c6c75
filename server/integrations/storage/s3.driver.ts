/**
 * S3 and S3-compatible servers (MinIO, R2, Ceph, …): objects in one bucket under the same keys as the
 * local driver. Files are streamed in parts (never read whole into memory); every object is written with
 * its Content-Type and the Cache-Control of public files (storage.types.ts says why it is short).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertSafeKey } from './local.driver';
import { PUBLIC_CACHE_CONTROL, type Storage } from './storage.types';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server such as MinIO (`http://minio:9000`); unset: AWS. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`) instead of virtual-hosted ones (`bucket.endpoint/key`). */
  forcePathStyle?: boolean;
  /** Both or neither; neither: the SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** A CDN or public base in front of the bucket; publicUrl(key) is `${publicBaseUrl}/${key}`. */
  publicBaseUrl?: string;
}

export const CACHE_CONTROL = PUBLIC_CACHE_CONTROL;
/** DeleteObjects takes at most 1000 keys per request. */
const DELETE_BATCH = 1000;

const trimSlashes = (url: string) => url.replace(/\/+$/, '');

export function s3Storage(options: S3StorageOptions): Storage & { client: S3Client; bucket: string } {
  const { bucket, region } = options;
  const endpoint = options.endpoint ? trimSlashes(options.endpoint) : undefined;
  const forcePathStyle = options.forcePathStyle ?? false;
  if ((options.accessKeyId === undefined) !== (options.secretAccessKey === undefined)) {
    throw new Error('S3 storage needs both accessKeyId and secretAccessKey, or neither.');
  }
  const clientConfig: S3ClientConfig = {
    region,
    forcePathStyle,
    ...(endpoint && {
      endpoint,
      // The SDK adds CRC checksums to every upload by default; several S3-compatible servers reject
      // those headers. Send checksums only where the API requires them (DeleteObjects).
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    }),
    ...(options.accessKeyId !== undefined &&
      options.secretAccessKey !== undefined && {
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      }),
  };
  const client = new S3Client(clientConfig);

  const objectUrlBase = options.publicBaseUrl
    ? trimSlashes(options.publicBaseUrl)
    : endpoint
      ? forcePathStyle
        ? `${endpoint}/${bucket}`
        : endpoint.replace(/^(https?:\/\/)/, `$1${bucket}.`)
      : forcePathStyle
        ? `https://s3.${region}.amazonaws.com/${bucket}`
        : `https://${bucket}.s3.${region}.amazonaws.com`;

  const isNotFound = (err: unknown) =>
    err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');

  return {
    kind: 's3',
    client,
    bucket,
    async putFile(key, localPath, contentType) {
      assertSafeKey(key);
      const body = createReadStream(localPath);
      try {
        await new Upload({
          client,
          params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType, CacheControl: CACHE_CONTROL },
        }).done();
      } finally {
        body.destroy();
      }
    },
    async putBuffer(key, body, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType, CacheControl: CACHE_CONTROL }));
    },
    async delete(keys) {
      keys.forEach(assertSafeKey);
      for (let i = 0; i < keys.length; i += DELETE_BATCH) {
        const batch = keys.slice(i, i + DELETE_BATCH);
        const result = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
        const failed = result.Errors ?? [];
        if (failed.length > 0) {
          const list = failed.map((e) => `${e.Key}: ${e.Code ?? 'error'}`).join(', ');
          throw new Error(`S3 could not delete ${failed.length} object(s): ${list}`);
        }
      }
    },
    async stat(key) {
      assertSafeKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0, mtime: head.LastModified ?? new Date(0) };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async read(key, range) {
      assertSafeKey(key);
      if (range && !(Number.isInteger(range.start) && Number.isInteger(range.end) && range.start >= 0 && range.end >= range.start)) {
        throw new RangeError(`Invalid byte range ${range.start}-${range.end} for ${key}`);
      }
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }));
      if (!(object.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      return object.Body;
    },
    publicUrl(key) {
      assertSafeKey(key);
      return `${objectUrlBase}/${key}`;
    },
  };
}
