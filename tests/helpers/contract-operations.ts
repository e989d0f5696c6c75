/**
 * The contract's operations read as data (openapi.yaml through the server's own reader), and the smallest requests
 * that pass its validation: the required fields of each body, path and query, each with the simplest value its schema
 * accepts (its example, its first enum value, its minimum, a string matching its pattern). Tests that must cover
 * every operation of a kind (every `x-admin` one) build their requests here, so that a new operation is covered
 * without editing them.
 */
import fc from 'fast-check';
import { Types } from 'mongoose';
import { readContractDocument } from '../../server/lib/contract-routes';
import { OPENAPI_PATH } from '../../server/lib/paths';

export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  example?: unknown;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

export interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  operationId: string;
  'x-admin'?: boolean;
  /** The scopes an API key needs to make this call; an operation without it is closed to keys. */
  'x-key-scopes'?: string[];
  /** An admin call sent as a POST that changes nothing (a preview): the audit log records nothing of it. */
  'x-read-only'?: boolean;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content: Record<string, { schema?: Schema }> };
}

export interface ContractOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path as the contract writes it, without the server's base (`/flag/resolve`, `/tag/{id}`). */
  template: string;
  operation: Operation;
}

const contract = readContractDocument(OPENAPI_PATH) as { paths: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the contract, in the contract's order. */
export const CONTRACT_OPERATIONS: ContractOperation[] = Object.entries(contract.paths).flatMap(([template, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({ method, template, operation: item[method] as Operation })),
);

/** Follows `$ref`s ('#/components/...') to what they name. */
export function deref<T extends { $ref?: string }>(node: T): T {
  let current = node;
  while (current?.$ref) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], contract) as T;
  }
  return current;
}

/** A string of `schema`'s pattern and length, made by fast-check from the pattern (the same one each run). */
function stringMatching(schema: Schema): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 1_000;
  const fits = (text: string) => text.length >= min && text.length <= max;
  const samples = fc.sample(fc.stringMatching(new RegExp(schema.pattern!)), { numRuns: 200, seed: 35 });
  const found = samples.find(fits);
  if (found === undefined) throw new Error(`No string of length ${min}..${max} matching ${schema.pattern} was found`);
  return found;
}

/** The simplest value `schema` accepts; `known` gives the value of a field by its name (real ids, say). */
export function simplestValue(raw: Schema, known: Record<string, unknown> = {}, name = ''): unknown {
  if (name in known) return known[name];
  const schema = deref(raw);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum) return schema.enum.find((value) => value !== null) ?? null;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const chosen = branches.map((branch) => deref(branch)).find((branch) => !(branch.enum && branch.enum.every((value) => value === null)));
    return chosen ? simplestValue(chosen, known, name) : null;
  }
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => simplestValue(part, known) as object));
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.pattern === '^[0-9a-fA-F]{24}$') return new Types.ObjectId().toHexString();
      if (schema.pattern) return stringMatching(schema);
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => simplestValue(schema.items ?? {}, known));
    default: {
      const object: Record<string, unknown> = {};
      for (const field of schema.required ?? []) object[field] = simplestValue(schema.properties?.[field] ?? {}, known, field);
      return object;
    }
  }
}

export interface SimplestRequest {
  /** The path with its parameters filled in, without the server's base. */
  url: string;
  query: Record<string, unknown>;
  /** The JSON body, or undefined for an operation that takes none. */
  body: unknown;
  /** Whether the operation's body is a multipart upload (not JSON), which these requests do not build. */
  multipart: boolean;
}

/** The smallest request of `operation` that the contract accepts; `known` gives the values of fields by name. */
export function simplestRequest({ template, operation }: ContractOperation, known: Record<string, unknown> = {}): SimplestRequest {
  const parameters = (operation.parameters ?? []).map((parameter) => deref(parameter));
  let url = template;
  const query: Record<string, unknown> = {};
  for (const parameter of parameters) {
    if (parameter.in === 'path')
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(simplestValue(parameter.schema ?? {}, known, parameter.name))));
    else if (parameter.in === 'query' && parameter.required) query[parameter.name] = simplestValue(parameter.schema ?? {}, known, parameter.name);
  }
  const content = operation.requestBody ? deref(operation.requestBody).content : undefined;
  const json = content?.['application/json']?.schema;
  return { url, query, body: json ? simplestValue(json, known) : undefined, multipart: Boolean(content && 'multipart/form-data' in content) };
}
