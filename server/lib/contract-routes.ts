/**
 * Which module serves each call of the contract, and the dispatcher that hands a request to that module alone.
 *
 * Each path in openapi.yaml names its module (`x-module`). Once the contract validator has matched a request to
 * its operation, the dispatcher passes it to the routers of that one module, instead of letting it walk past the
 * routes of every module in turn. A unit test checks that the routers serve exactly the contract's calls, so
 * no path needs listing by hand anywhere else.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type RequestHandler } from 'express';
import { parse } from 'yaml';

/** Each module's routers, by the module's name as `x-module` spells it. */
export type ModuleRouters = Record<string, Router[]>;

/** What is read here of the contract: its base path, and each path's module and request body types. */
interface ContractPaths {
  servers?: { url: string }[];
  paths: Record<string, ({ 'x-module'?: string } & Record<string, { requestBody?: { content?: Record<string, unknown> } } | string | undefined>) | null>;
}

const contracts = new Map<string, unknown>();

/**
 * The contract file as a document, read once per process. Parsing the YAML takes most of a second, at every start
 * and in every test file; `npm run gen` also writes the document as JSON (`generated/<name>.json`, beside the
 * contract), with the SHA-256 of the YAML it came from, and that copy is read instead when it is current. A
 * contract edited since, before `npm run gen` ran again, is parsed from its YAML: never a stale copy.
 */
export function readContractDocument(contractFile: string): unknown {
  let document = contracts.get(contractFile);
  if (document === undefined) {
    const text = readFileSync(contractFile, 'utf8');
    const compiled = compiledContractPath(contractFile);
    const copy = existsSync(compiled) ? (JSON.parse(readFileSync(compiled, 'utf8')) as CompiledContract) : undefined;
    document = withSharedResponses(copy?.sourceSha256 === contractSha256(text) ? copy.document : parse(text));
    contracts.set(contractFile, document);
  }
  return document;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

type OperationResponses = { responses?: Record<string, unknown> };

/**
 * The contract with its `x-shared-responses` given to every operation: the answers any call may give whatever it
 * does (503 while the database is unreachable), written once at the top of openapi.yaml rather than in each of
 * some two hundred operations. An operation that declares the same status itself keeps its own. The validator, the
 * generated types and the contract's tests read the contract through here, so all of them see the shared answers.
 */
export function withSharedResponses<T>(document: T): T {
  const contract = document as { 'x-shared-responses'?: Record<string, unknown>; paths?: Record<string, Record<string, unknown> | null> };
  const shared = contract['x-shared-responses'];
  if (!shared || !contract.paths) return document;
  for (const item of Object.values(contract.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method] as OperationResponses | undefined;
      if (!operation) continue;
      operation.responses = { ...operation.responses };
      for (const [status, response] of Object.entries(shared)) operation.responses[status] ??= structuredClone(response);
    }
  }
  return document;
}

/** What `npm run gen` writes beside the contract: the parsed document and the hash of the text it was parsed from. */
export interface CompiledContract {
  sourceSha256: string;
  document: unknown;
}

export const compiledContractPath = (contractFile: string): string =>
  path.join(path.dirname(contractFile), 'generated', `${path.basename(contractFile, path.extname(contractFile))}.json`);

export const contractSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The contract as parsed from its file, read once per file. */
export function readContract(contractFile: string): ContractPaths {
  return readContractDocument(contractFile) as ContractPaths;
}

/**
 * Where the API's paths start on this server (`/api/v2`): the path of the contract's first server URL. That URL is
 * absolute for the generators of integrators' clients (`https://{host}/api/v2`), so only its path is taken here.
 */
export function contractBasePath(contract: { servers?: { url: string }[] }): string {
  const url = contract.servers?.[0]?.url ?? '';
  return new URL(url.replace(/\{[^}]*\}/g, 'host'), 'http://relative.invalid').pathname.replace(/\/$/, '');
}

/** Every path of the contract, with the server's base (`/api/v2/knack/add`), and the module that serves it. */
export function modulesOfPaths(contractFile: string): Map<string, string> {
  const contract = readContract(contractFile);
  const base = contractBasePath(contract);
  const modules = new Map<string, string>();
  for (const [pathName, item] of Object.entries(contract.paths)) {
    const module = item?.['x-module'];
    if (!module) throw new Error(`${contractFile}: the path ${pathName} names no module (x-module)`);
    modules.set(base + pathName, module);
  }
  return modules;
}

/** What the contract validator leaves on a request it matched: the operation's path as the contract writes it, with its base. */
type Matched = Request & { openapi?: { openApiRoute?: string } };

/**
 * Hands each request the validator matched to the routers of the module that serves its path (mount it where
 * the routers' paths start, after the validator). A request it did not match goes on to what follows.
 */
export function serveByModule(routers: ModuleRouters, contractFile: string): RequestHandler {
  const byModule = new Map(Object.entries(routers).map(([module, list]) => [module, joined(list)]));
  const byPath = new Map<string, Router>();
  for (const [path, module] of modulesOfPaths(contractFile)) {
    const router = byModule.get(module);
    if (router) byPath.set(path, router);
  }
  return (req, res, next) => {
    const path = (req as Matched).openapi?.openApiRoute;
    const router = path ? byPath.get(path) : undefined;
    if (router) router(req, res, next);
    else next();
  };
}

function joined(list: Router[]): Router {
  if (list.length === 1) return list[0]!;
  const router = Router();
  router.use(...list);
  return router;
}

/**
 * The full URL paths of the contract's operations that take a multipart body (uploads): their bodies are streamed
 * to disk by the upload router, which checks them itself, so the validator must not try to read them. Read from
 * the contract, so that a new upload call needs no second list.
 */
export function multipartPaths(contractFile: string): Set<string> {
  const contract = readContract(contractFile);
  const base = contractBasePath(contract);
  const found = new Set<string>();
  for (const [pathName, item] of Object.entries(contract.paths)) {
    for (const operation of Object.values(item ?? {})) {
      const content = typeof operation === 'object' ? operation.requestBody?.content : undefined;
      if (content && 'multipart/form-data' in content) found.add(base + pathName);
    }
  }
  return found;
}

/** An operation of the contract, as the request-time checks read it (the validator leaves the same object on `req.openapi.schema`). */
export interface ContractOperation {
  operationId: string;
  'x-key-scopes'?: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The contract's operation a request is for, by its method and path (with the base, without the query), before the
 * contract validator has run: for checks that must come before the routers that read a raw body (uploads). Matched
 * as Express routes them: literal segments without regard to case, a trailing slash ignored, a `{name}` segment
 * taking any one segment, and a literal path before a templated one (`/tag/get-all` before `/tag/{id}`). HEAD is GET.
 */
export function operationFinder(contractFile: string): (method: string, path: string) => ContractOperation | undefined {
  const contract = readContract(contractFile) as unknown as { paths: Record<string, Record<string, unknown> | null> };
  const base = contractBasePath(contract as { servers?: { url: string }[] });
  const routes = Object.entries(contract.paths)
    .map(([template, item]) => ({
      segments: (base + template).toLowerCase().split('/'),
      templated: (template.match(/\{[^}]+\}/g) ?? []).length,
      item: item ?? {},
    }))
    .sort((a, b) => a.templated - b.templated);
  return (method, path) => {
    const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    if (!(METHODS as readonly string[]).includes(wanted)) return undefined;
    const segments = path
      .replace(/(.)\/$/, '$1')
      .toLowerCase()
      .split('/');
    for (const route of routes) {
      const operation = route.item[wanted] as ContractOperation | undefined;
      if (!operation || route.segments.length !== segments.length) continue;
      if (route.segments.every((segment, i) => (segment.startsWith('{') ? segments[i] !== '' : segment === segments[i]))) return operation;
    }
    return undefined;
  };
}

/**
 * Whether a request's path is one of the multipart calls (`multipartPaths`), a path parameter standing for any one
 * segment (`/api/v2/content/file/{id}/image` is the path of `/api/v2/content/file/5f…/image`).
 */
export function multipartPathMatcher(contractFile: string): (path: string) => boolean {
  const patterns = [...multipartPaths(contractFile)].map(
    (template) =>
      new RegExp(
        `^${template
          .split(/\{[^/}]+\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
  );
  return (path) => patterns.some((pattern) => pattern.test(path));
}
