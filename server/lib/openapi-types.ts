/** Handler types derived from the generated contract types (generated/openapi.ts). */
import type { Request, Response } from 'express';
import type { operations, components } from '../../generated/openapi';

export type Schemas = components['schemas'];
export type OperationId = keyof operations;

type SuccessOf<R> = R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : R extends { 202: infer S } ? S : never;
type JsonOf<S> = S extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body a successful call of operation K answers. */
export type ResultOf<K extends OperationId> = JsonOf<SuccessOf<operations[K]['responses']>>;
type ParamsOf<K extends OperationId> = operations[K]['parameters'] extends { path: infer P } ? P : Record<string, never>;
type QueryOf<K extends OperationId> = operations[K]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;
type BodyOf<K extends OperationId> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } } ? B : unknown;

/** Express request of operation K: params, query and body as validated by express-openapi-validator. */
export type ApiRequest<K extends OperationId> = Request<ParamsOf<K> & Record<string, string>, ResultOf<K>, BodyOf<K>, QueryOf<K>>;
export type ApiResponse<K extends OperationId> = Response<ResultOf<K>>;
