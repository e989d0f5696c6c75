import path from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import { PROJECT_ROOT } from '../../server/lib/paths';

describe('loadConfig', () => {
  it('when nothing is set, then every part is on its embedded default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      mongodbUri: undefined,
      dbName: 'knack',
      dataDir: path.join(PROJECT_ROOT, 'data'),
      clientDir: path.join(PROJECT_ROOT, 'dist/client'),
      seedOnStart: true,
      validateResponses: true,
      trustProxy: false,
    });
  });

  it('when production is set, then responses are not validated and logs are at info', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ validateResponses: false, logLevel: 'info' });
  });

  it('when values are given, then they are parsed', () => {
    const config = loadConfig({
      PORT: '8080',
      MONGODB_URI: 'mongodb://db.internal:27017/knack',
      SEED_ON_START: 'false',
      TRUST_PROXY: '1',
      DATA_DIR: '/var/lib/knack',
    });
    expect(config).toMatchObject({ port: 8080, mongodbUri: 'mongodb://db.internal:27017/knack', seedOnStart: false, trustProxy: 1, dataDir: '/var/lib/knack' });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV must be/],
    [{ SEED_ON_START: 'maybe' }, /SEED_ON_START must be true or false/],
    [{ MONGODB_URI: 'postgres://x' }, /MONGODB_URI must start with mongodb/],
  ])('when %p is set, then start fails with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
