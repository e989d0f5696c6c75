/**
 * Every call of the contract is served by the module its path names (`x-module`), and the routers serve no call the
 * contract lacks: the app hands each request to that one module's routers, so a route left out of the contract, or
 * served by another module than it names, would never be reached.
 */
import type { Router } from 'express';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { apiRouters } from '../../server/app';
import { buildServices } from '../../server/services';
import { modulesOfPaths, type ModuleRouters } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';
import { createLogger } from '../../server/lib/logger';
import { outboxMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { testConfig } from '../helpers/app';

const BASE = '/api/v2';
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** `POST /knack/add` for each route of the routers, in the contract's spelling (`{id}`, not `:id`, without the base). */
function served(routers: Router[]): string[] {
  return routers.flatMap((router) =>
    (router.stack as Layer[]).flatMap((layer) => {
      if (!layer.route) return [];
      const path = layer.route.path.replace(/^\/api\/v2/, '').replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    }),
  );
}

function contractCalls(): Map<string, string[]> {
  const contract = parse(readFileSync(OPENAPI_PATH, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const byModule = new Map<string, string[]>();
  for (const [path, module] of modulesOfPaths(OPENAPI_PATH)) {
    const calls = Object.keys(contract.paths[path.slice(BASE.length)]!)
      .filter((method) => METHODS.has(method))
      .map((method) => `${method.toUpperCase()} ${path.slice(BASE.length)}`);
    byModule.set(module, [...(byModule.get(module) ?? []), ...calls]);
  }
  return byModule;
}

describe('the routers and the contract', () => {
  const config = testConfig();
  const logger = createLogger('silent');
  const services = buildServices({
    config,
    logger,
    mailer: outboxMailer('/tmp/knack-unused-outbox', 'Knack <a@knack.test>'),
    storage: localStorage('/tmp/knack-unused'),
  });
  const { rawBody, json } = apiRouters(config, services);
  const byModule: ModuleRouters = {};
  for (const part of [rawBody, json]) for (const [module, list] of Object.entries(part)) byModule[module] = [...(byModule[module] ?? []), ...list];
  const calls = contractCalls();

  it('every path of the contract names a module that has routers', () => {
    const unknown = [...modulesOfPaths(OPENAPI_PATH)].filter(([, module]) => !byModule[module]);
    expect(unknown).toEqual([]);
    expect(modulesOfPaths(OPENAPI_PATH).size).toBeGreaterThan(70);
  });

  it.each(Object.keys(byModule))('the %s module serves exactly the calls the contract gives it', (module) => {
    expect(served(byModule[module]!).sort()).toEqual((calls.get(module) ?? []).sort());
  });
});
