import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import { createStorage } from '../../server/integrations/storage';

/** A valid JWT secret, so these cases never write a development secret under DATA_DIR. */
const base = { JWT_SECRET: 'z'.repeat(32) };

describe('loadConfig: media storage', () => {
  it('when S3_BUCKET is unset, then media go to local disk under DATA_DIR/uploads', () => {
    const config = loadConfig({ ...base, DATA_DIR: '/var/lib/knack' });
    expect(config.storage).toEqual({ s3: undefined });
    const storage = createStorage(config);
    expect(storage.kind).toBe('local');
    expect(storage).toMatchObject({ root: path.join('/var/lib/knack', 'uploads') });
  });

  it('when only S3_BUCKET is set, then AWS is used in us-east-1 with virtual-hosted URLs and the default credentials', () => {
    const config = loadConfig({ ...base, S3_BUCKET: 'knack-media' });
    expect(config.storage.s3).toEqual({
      bucket: 'knack-media',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      publicBaseUrl: undefined,
    });
    const storage = createStorage(config);
    expect(storage.kind).toBe('s3');
    expect(storage.publicUrl('images/2026/11/abc.webp')).toBe('https://knack-media.s3.us-east-1.amazonaws.com/images/2026/11/abc.webp');
  });

  it('when S3_ENDPOINT is set, then path style is on by default and URLs are endpoint/bucket/key', () => {
    const config = loadConfig({
      ...base,
      S3_BUCKET: 'knack',
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
    });
    expect(config.storage.s3).toEqual({
      bucket: 'knack',
      region: 'eu-west-3',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      accessKeyId: 'minio',
      secretAccessKey: 'minio-secret',
      publicBaseUrl: undefined,
    });
    expect(createStorage(config).publicUrl('audio/x.mp3')).toBe('http://minio:9000/knack/audio/x.mp3');
  });

  it('when S3_FORCE_PATH_STYLE=false and a CDN base are set, then both are honoured', () => {
    const config = loadConfig({
      ...base,
      S3_BUCKET: 'knack',
      S3_ENDPOINT: 'https://storage.example',
      S3_FORCE_PATH_STYLE: 'false',
      S3_PUBLIC_URL: 'https://cdn.knack.example/media/',
    });
    expect(config.storage.s3).toMatchObject({ forcePathStyle: false, publicBaseUrl: 'https://cdn.knack.example/media' });
    expect(createStorage(config).publicUrl('images/a.webp')).toBe('https://cdn.knack.example/media/images/a.webp');
  });

  it.each([
    [{ S3_BUCKET: 'Knack_Media' }, /S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'ab' }, /S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'knack', S3_REGION: 'EU West' }, /S3_REGION must be a region name/],
    [{ S3_BUCKET: 'knack', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT must be an http\(s\) URL/],
    [{ S3_BUCKET: 'knack', S3_PUBLIC_URL: 'cdn.knack.example' }, /S3_PUBLIC_URL must be an http\(s\) URL/],
    [{ S3_BUCKET: 'knack', S3_FORCE_PATH_STYLE: 'sometimes' }, /S3_FORCE_PATH_STYLE must be true or false/],
    [{ S3_BUCKET: 'knack', S3_ACCESS_KEY_ID: 'id' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/],
    [{ S3_BUCKET: 'knack', S3_SECRET_ACCESS_KEY: 'secret' }, /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/],
    [{ S3_ENDPOINT: 'http://minio:9000' }, /S3_BUCKET must be set with S3_ENDPOINT/],
  ])('when %p is set, then start fails with a clear message', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
