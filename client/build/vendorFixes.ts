/**
 * Corrected copies of vendor modules, put in place of the originals when the client is built. Each entry names
 * the package module it replaces (the importing file and the import) and our copy, which says why.
 */
import path from 'node:path';
import type { Plugin } from 'vite';

interface VendorFix {
  /** The importing file, by the end of its path. */
  importer: RegExp;
  /** The import as that file writes it. */
  source: string;
  /** Our module, from the client's root. */
  replacement: string;
}

const FIXES: VendorFix[] = [
  {
    // The Escape stack of antd's modals, drawers and popups (see the copy for the bug).
    importer: /@rc-component[\\/]portal[\\/]es[\\/]Portal\.js$/,
    source: './useEscKeyDown',
    replacement: 'src/lib/vendor-fixes/useEscKeyDown.ts',
  },
  {
    // axios's fetch adapter, which the SPA never uses and which probes the browser as it loads (see the stand-in).
    importer: /axios[\\/]lib[\\/]adapters[\\/]adapters\.js$/,
    source: './fetch.js',
    replacement: 'src/lib/vendor-fixes/axiosFetchAdapter.ts',
  },
];

export function vendorFixes(clientRoot: string): Plugin {
  return {
    name: 'knack-vendor-fixes',
    enforce: 'pre',
    resolveId(source, importer) {
      const fix = importer ? FIXES.find((candidate) => candidate.source === source && candidate.importer.test(importer)) : undefined;
      return fix ? path.join(clientRoot, fix.replacement) : null;
    },
  };
}
