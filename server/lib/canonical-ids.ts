/**
 * Ids in one form. The contract takes an id in either letter case (`^[0-9a-fA-F]{24}$`), and the keys built from an
 * id (`{followerId}:{followedId}`, `play:{contentId}:…`, `{blockerId}:{blockedId}`) would be another key for each
 * form of it: a member could follow another once per spelling, or pass "You cannot follow yourself" with their own id
 * in capitals. So once the validator has checked a request, every value that the contract says is an id (a path or
 * query parameter, a body field at any depth) is lower-cased, the form the database writes, and no handler ever sees
 * another. Which values are ids is read from the contract: a new call needs nothing here.
 */
import type { Request, RequestHandler } from 'express';
import { contractBasePath, readContract } from './contract-routes';

/** What a schema's pattern holds when its value is an id (alone, or with `guest`, `admin` or a message's `-n`). */
const ID_PATTERN = '[0-9a-fA-F]{24}';

type Schema = {
  $ref?: string;
  pattern?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};
type Parameter = { $ref?: string; name?: string; in?: string; schema?: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> } };

/** Where the ids are in a value of one schema: the value itself, and within its fields or items. */
interface IdsIn {
  self: boolean;
  fields: Map<string, IdsIn>;
  items?: IdsIn;
  otherFields?: IdsIn;
}

/** Where the ids are in the requests of one operation. */
interface OperationIds {
  path: Set<string>;
  query: Map<string, IdsIn>;
  body?: IdsIn;
}

function merged(plans: (IdsIn | undefined)[]): IdsIn | undefined {
  const found = plans.filter((plan): plan is IdsIn => Boolean(plan));
  if (found.length <= 1) return found[0];
  const all: IdsIn = { self: found.some((plan) => plan.self), fields: new Map() };
  for (const plan of found) {
    for (const [name, field] of plan.fields) all.fields.set(name, merged([all.fields.get(name), field])!);
    all.items = merged([all.items, plan.items]);
    all.otherFields = merged([all.otherFields, plan.otherFields]);
  }
  return all;
}

/** Reads the contract's operations, and where each one's requests carry ids. */
function idsOfOperations(contractFile: string): Map<string, OperationIds> {
  const contract = readContract(contractFile) as unknown as {
    servers?: { url: string }[];
    paths: Record<string, Record<string, unknown> | null>;
  };
  const resolve = <T extends { $ref?: string }>(node: T | undefined): T | undefined => {
    let current = node;
    for (let hops = 0; current?.$ref && hops < 20; hops += 1) {
      const ref: string = current.$ref;
      current = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], contract) as T | undefined;
    }
    return current;
  };

  const inProgress = new Set<Schema>();
  const idsIn = (raw: Schema | undefined): IdsIn | undefined => {
    const schema = resolve(raw);
    // A schema that contains itself holds no id the first pass does not find.
    if (!schema || inProgress.has(schema)) return undefined;
    inProgress.add(schema);
    try {
      const fields = new Map<string, IdsIn>();
      for (const [name, field] of Object.entries(schema.properties ?? {})) {
        const plan = idsIn(field);
        if (plan) fields.set(name, plan);
      }
      const own: IdsIn = {
        self: typeof schema.pattern === 'string' && schema.pattern.includes(ID_PATTERN),
        fields,
        items: idsIn(schema.items),
        otherFields: typeof schema.additionalProperties === 'object' ? idsIn(schema.additionalProperties) : undefined,
      };
      const found = own.self || own.fields.size || own.items || own.otherFields ? own : undefined;
      return merged([found, ...[...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].map(idsIn)]);
    } finally {
      inProgress.delete(schema);
    }
  };

  const base = contractBasePath(contract);
  const operations = new Map<string, OperationIds>();
  for (const [pathName, item] of Object.entries(contract.paths)) {
    const shared = (item?.parameters as Parameter[] | undefined) ?? [];
    for (const [method, raw] of Object.entries(item ?? {})) {
      if (!raw || typeof raw !== 'object' || method === 'parameters') continue;
      const operation = raw as Operation;
      const ids: OperationIds = { path: new Set(), query: new Map() };
      for (const parameter of [...shared, ...(operation.parameters ?? [])].map(resolve)) {
        const plan = idsIn(parameter?.schema);
        if (!plan || !parameter?.name) continue;
        if (parameter.in === 'path' && plan.self) ids.path.add(parameter.name);
        if (parameter.in === 'query') ids.query.set(parameter.name, plan);
      }
      ids.body = idsIn(resolve(operation.requestBody)?.content?.['application/json']?.schema);
      if (ids.path.size || ids.query.size || ids.body) operations.set(`${method.toUpperCase()} ${base}${pathName}`, ids);
    }
  }
  return operations;
}

/** The value with every id in it lower-cased (objects and arrays changed in place). */
function lowerCased(value: unknown, plan: IdsIn): unknown {
  if (typeof value === 'string') return plan.self ? value.toLowerCase() : value;
  if (Array.isArray(value)) {
    if (plan.items) for (let i = 0; i < value.length; i += 1) value[i] = lowerCased(value[i], plan.items);
    return value;
  }
  if (value && typeof value === 'object') {
    const fields = value as Record<string, unknown>;
    for (const name of Object.keys(fields)) {
      const field = plan.fields.get(name) ?? plan.otherFields;
      if (field) fields[name] = lowerCased(fields[name], field);
    }
  }
  return value;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** What the contract validator leaves on a request it matched. */
type Matched = Request & { openapi?: { openApiRoute?: string; pathParams?: Record<string, string> } };

/**
 * Lower-cases the ids of every request the validator matched (mount it right after the validator). A path's ids
 * are changed in the URL itself, since each router reads its parameters from the URL again.
 */
export function canonicalIds(contractFile: string): RequestHandler {
  const operations = idsOfOperations(contractFile);
  return (req, _res, next) => {
    const matched = (req as Matched).openapi;
    const ids = matched?.openApiRoute ? operations.get(`${req.method} ${matched.openApiRoute}`) : undefined;
    if (!ids) return next();
    if (ids.path.size) {
      const [pathPart, ...rest] = req.url.split('?');
      const segments = pathPart!.split('/');
      const template = matched!.openApiRoute!.split('/');
      // Segment by segment, as the template has them (a trailing slash adds an empty one).
      if (segments.length === template.length || (segments.length === template.length + 1 && segments.at(-1) === '')) {
        template.forEach((segment, i) => {
          const name = /^\{(.+)\}$/.exec(segment)?.[1];
          if (name && ids.path.has(name)) segments[i] = encodeURIComponent(decoded(segments[i]!).toLowerCase());
        });
        req.url = [segments.join('/'), ...rest].join('?');
      }
      for (const name of ids.path) {
        const value = matched!.pathParams?.[name];
        if (typeof value === 'string') matched!.pathParams![name] = value.toLowerCase();
      }
    }
    const query = req.query as Record<string, unknown>;
    for (const [name, plan] of ids.query) if (name in query) query[name] = lowerCased(query[name], plan);
    if (ids.body && req.body !== undefined) req.body = lowerCased(req.body, ids.body);
    next();
  };
}
