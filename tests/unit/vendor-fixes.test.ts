/**
 * The client build's stand-ins for vendor modules (client/build/vendorFixes.ts): each replaces one import of one
 * package file, and nothing else.
 */
import path from 'node:path';
import type { Plugin } from 'vite';
import { vendorFixes } from '../../client/build/vendorFixes';
import { getFetch } from '../../client/src/lib/vendor-fixes/axiosFetchAdapter';

const ROOT = '/repo/client';
const plugin = vendorFixes(ROOT) as Plugin & { resolveId: (source: string, importer?: string) => string | null };
const resolve = (source: string, importer?: string) => plugin.resolveId(source, importer);

describe('the vendor fixes of the client build', () => {
  it("put our stand-in in place of axios's fetch adapter, for axios's adapter list only", () => {
    expect(resolve('./fetch.js', '/repo/node_modules/axios/lib/adapters/adapters.js')).toBe(path.join(ROOT, 'src/lib/vendor-fixes/axiosFetchAdapter.ts'));
    expect(resolve('./fetch.js', '/repo/node_modules/other/lib/adapters/adapters.js')).toBeNull();
    expect(resolve('./xhr.js', '/repo/node_modules/axios/lib/adapters/adapters.js')).toBeNull();
    expect(resolve('./fetch.js')).toBeNull();
  });

  it('have the stand-in tell axios that the fetch adapter is not available, so that it keeps to XMLHttpRequest', () => {
    expect(getFetch()).toBe(false);
  });

  it("put our Escape stack in place of antd's portal hook", () => {
    expect(resolve('./useEscKeyDown', '/repo/node_modules/@rc-component/portal/es/Portal.js')).toBe(path.join(ROOT, 'src/lib/vendor-fixes/useEscKeyDown.ts'));
  });
});
