/**
 * A faster copy of how express-openapi-validator (5.6.2, `dist/middlewares/util.js`, `useAjvCache`) hands ajv the
 * schema of each check it builds: an operation's parameters, its request body, and each of its answers.
 *
 * Why: each of those schemas carries the whole contract with it (`paths` and `components`), so that the `$ref`s in
 * it resolve. Adding a schema, ajv first walks every node of it looking for `$id`s and anchors, which means the
 * whole contract again for every check. In the API tests, where each file's app builds the checks of the calls it
 * makes, that walk took about a third of a file's CPU. Our contract declares no `$id` or anchor, and its `$ref`s
 * are JSON pointers into `components`, which ajv follows by reading properties. So the copy makes `paths` and
 * `components` non-enumerable on the schema it is given, which hides them from the walk (it goes through enumerable
 * keys) but not from `$ref`s: ajv then walks only the operation's own part. A part of the contract that does
 * declare an `$id` or anchor is handed over as the package hands it.
 */
import { createRequire } from 'node:module';
import { requirePatchedVersion } from './patched-versions';

const vendor = createRequire(__filename);
/** The contract's parts every schema carries, which only `$ref`s need. */
const CARRIED_CONTRACT = ['paths', 'components'] as const;
/** The keywords that would name a schema for other schemas to find, and that the walk exists to find. */
const NAMING_KEYWORDS = ['$id', '$anchor', '$dynamicAnchor'];

interface Ajv {
  getSchema(key: string): unknown;
  addSchema(schema: object, key: string): unknown;
}

/** Whether anything in `node` names itself for others to find, remembered per contract part. */
const namesSchemas = new WeakMap<object, boolean>();
function declaresNames(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  const known = namesSchemas.get(node);
  if (known !== undefined) return known;
  // Provisionally no, so that a schema that contains itself (the validator resolves some `$ref`s in place) ends.
  namesSchemas.set(node, false);
  const found =
    NAMING_KEYWORDS.some((keyword) => typeof (node as Record<string, unknown>)[keyword] === 'string') ||
    Object.values(node).some((value) => declaresNames(value));
  namesSchemas.set(node, found);
  return found;
}

function useAjvCacheWithoutContractWalk(ajv: Ajv, schema: Record<string, unknown>, ajvCacheKey: string): unknown {
  let validator = ajv.getSchema(ajvCacheKey);
  if (!validator) {
    for (const part of CARRIED_CONTRACT) {
      const value = schema[part];
      if (value === undefined || declaresNames(value)) continue;
      Object.defineProperty(schema, part, { value, enumerable: false, writable: true, configurable: true });
    }
    ajv.addSchema(schema, ajvCacheKey);
    validator = ajv.getSchema(ajvCacheKey);
  }
  return validator;
}

/**
 * Makes every check the validator builds from now on skip the walk of the whole contract. Throws if the installed
 * package is not the version the copy was made from, rather than copying behaviour that may have changed.
 */
export function useLeanSchemaRegistration(): void {
  requirePatchedVersion('express-openapi-validator', 'server/lib/vendor-fixes/openapi-schema-registration.ts');
  // The module's own exports object, through which the request and response validators call the function.
  const util = vendor('express-openapi-validator/dist/middlewares/util') as { useAjvCache: unknown };
  util.useAjvCache = useAjvCacheWithoutContractWalk;
}
