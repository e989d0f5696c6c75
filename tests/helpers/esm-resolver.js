// @ts-check
/**
 * A jest resolver for packages that ship only ES modules (the IPFS importer and the multiformats family).
 * Node loads them with require() (require of ES modules, through their `module-sync` or `import` exports), so the
 * server's CommonJS build uses them as they are; jest's own module system resolves a require() with the `require`
 * condition only, which these packages do not export. When that finds nothing, the request is resolved again
 * as an import, and the swc transform turns the module into CommonJS (jest.config.js lets it transform them).
 */

/** @typedef {{ defaultResolver: (request: string, options: object) => string, conditions?: string[] }} ResolverOptions */

const IMPORT_CONDITIONS = ['import', 'module-sync', 'node', 'default'];

/** @param {string} request @param {ResolverOptions} options */
module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (err) {
    if (request.startsWith('.') || request.startsWith('/')) throw err;
    return options.defaultResolver(request, { ...options, conditions: IMPORT_CONDITIONS });
  }
};
