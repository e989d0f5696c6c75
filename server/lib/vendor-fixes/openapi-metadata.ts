/**
 * A faster copy of express-openapi-validator's first step (5.6.2, `dist/middlewares/openapi.metadata.js`): finding the
 * contract operation a request calls, which every other step of the validator and our module dispatcher read from
 * `req.openapi`. `useFasterOperationLookup()` puts it in place of the package's own, before the validator is built.
 *
 * Why: the package, on every request, walks the contract's routes in order and, for each, rebuilds its path options
 * and compiles its path pattern again (path-to-regexp) until one matches. With some 80 operations that was a tenth
 * of the CPU of a simple call, and more than the knack path's own work. Here each pattern is compiled once, and a
 * path that is exactly a route without parameters is found in a map. The answer is the same: the first route in
 * the contract's order whose pattern matches (the map remembers, for each such path, which route that is), with the
 * same path values, the same 404 and 405 errors, and the same "malformed uri" 400. An upstream fix is proposed as
 * cdimascio/express-openapi-validator#1217.
 */
import { createRequire } from 'node:module';
import type { NextFunction, Request, Response } from 'express';
import type { pathToRegexp as PathToRegexp } from 'path-to-regexp';
import { requirePatchedVersion } from './patched-versions';

const vendor = createRequire(__filename);
/** The path-to-regexp the validator itself loads, so that patterns compile exactly as they did there. */
const { pathToRegexp } = createRequire(vendor.resolve('express-openapi-validator/dist/middlewares/openapi.metadata'))('path-to-regexp') as {
  pathToRegexp: typeof PathToRegexp;
};

/** What the copy reads of the validator's context (framework/openapi.context.js). */
interface RouteMethods {
  basePath: string;
  _openApiRoute: string;
  _expressRoute: string;
}
interface OpenApiContext {
  expressRouteMap: Record<string, RouteMethods>;
  openApiRouteMap: Record<string, Record<string, unknown>>;
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  useRequestUrl: boolean;
  ignoreUndocumented: boolean;
  serial: number;
  shouldIgnoreRoute(path: string): boolean;
  isManagedRoute(path: string): boolean;
}
type ApiDoc = OpenApiContext['apiDoc'];
type HttpErrorClass = new (err: { path: string; message: string; headers?: Record<string, string> }) => Error;

interface CompiledRoute {
  expressRoute: string;
  openApiRoute: string;
  /** The route's path as the contract's `paths` key it (without the server's base path). */
  pathKey: string;
  pattern: RegExp;
  paramNames: string[];
}

interface Matcher {
  routes: CompiledRoute[];
  /** For each route path without parameters: the index of the first route that matches it. */
  exact: Map<string, number>;
}

function compile(context: OpenApiContext, sensitive: boolean, strict: boolean): Matcher {
  const routes = Object.entries(context.expressRouteMap).map(([expressRoute, methods]): CompiledRoute => {
    // The options the package passes (path-to-regexp 8 has no `strict` and ignores it, there as here).
    const { regexp, keys } = pathToRegexp(expressRoute, { sensitive, strict } as Parameters<typeof PathToRegexp>[1]);
    const openApiRoute = methods._openApiRoute;
    return { expressRoute, openApiRoute, pathKey: openApiRoute.substring(methods.basePath.length), pattern: regexp, paramNames: keys.map((key) => key.name) };
  });
  const exact = new Map<string, number>();
  for (const route of routes) {
    if (route.paramNames.length === 0)
      exact.set(
        route.expressRoute,
        routes.findIndex((earlier) => earlier.pattern.test(route.expressRoute)),
      );
  }
  return { routes, exact };
}

function fasterMetadata(context: OpenApiContext, responseApiDoc: ApiDoc | undefined) {
  const { BadRequest, MethodNotAllowed, NotFound } = vendor('express-openapi-validator/dist/framework/types') as Record<
    'BadRequest' | 'MethodNotAllowed' | 'NotFound',
    HttpErrorClass
  >;
  const { httpMethods } = vendor('express-openapi-validator/dist/middlewares/parsers/schema.preprocessor') as { httpMethods: Set<string> };
  // By the app's routing settings, which the package reads on each request too.
  const matchers = new Map<string, Matcher>();

  function lookupRoute(req: Request) {
    const path = (context.useRequestUrl ? req.url : req.originalUrl).split('?')[0]!;
    const sensitive = Boolean(req.app.enabled('case sensitive routing'));
    const strict = Boolean(req.app.enabled('strict routing'));
    const flags = `${sensitive}:${strict}`;
    let matcher = matchers.get(flags);
    if (!matcher) {
      matcher = compile(context, sensitive, strict);
      matchers.set(flags, matcher);
    }
    const index = matcher.exact.get(path) ?? matcher.routes.findIndex((route) => route.pattern.test(path));
    const route = matcher.routes[index];
    if (!route) return null;
    const method = req.method.toLowerCase();
    let pathParams: Record<string, string>;
    try {
      const values = route.pattern
        .exec(path)!
        .slice(1)
        .map((value) => decodeURIComponent(value));
      pathParams = Object.fromEntries(route.paramNames.map((name, i) => [name, values[i]!]));
    } catch {
      throw new BadRequest({ path: req.path, message: `malformed uri'` });
    }
    return {
      schema: context.apiDoc.paths[route.pathKey]![method],
      responseSchema: responseApiDoc?.paths[route.pathKey]![method],
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      pathParams,
    };
  }

  return (req: Request & { openapi?: Record<string, unknown> }, _res: Response, next: NextFunction) => {
    const path = req.path.startsWith(req.baseUrl) ? req.path : `${req.baseUrl}/${req.path}`;
    if (context.shouldIgnoreRoute(path)) return next();
    const matched = lookupRoute(req);
    if (matched) {
      const { expressRoute, openApiRoute, pathParams, schema } = matched;
      if (!schema) {
        // A path of the contract called with a method it does not have.
        if (context.ignoreUndocumented) return next();
        const allowed = Object.keys(context.openApiRouteMap[openApiRoute]!).filter((key) => httpMethods.has(key.toLowerCase()));
        throw new MethodNotAllowed({ path: req.path, message: `${req.method} method not allowed`, headers: { Allow: allowed.join(', ') } });
      }
      req.openapi = { expressRoute, openApiRoute, pathParams, schema, serial: context.serial };
      req.params = pathParams;
      if (responseApiDoc) req.openapi._responseSchema = matched.responseSchema;
    } else if (context.isManagedRoute(path) && !context.ignoreUndocumented) {
      throw new NotFound({ path: req.path, message: 'not found' });
    }
    next();
  };
}

/**
 * Makes every validator built from now on find operations with the copy above. Throws if the installed package is
 * not the version the copy was made from, rather than copying behaviour that may have changed.
 */
export function useFasterOperationLookup(): void {
  requirePatchedVersion('express-openapi-validator', 'server/lib/vendor-fixes/openapi-metadata.ts');
  // The module's own exports object, through which the validator's `metadataMiddleware` calls the function.
  const metadata = vendor('express-openapi-validator/dist/middlewares/openapi.metadata') as { applyOpenApiMetadata: unknown };
  metadata.applyOpenApiMetadata = fasterMetadata;
}
