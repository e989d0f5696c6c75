import { useDispatch, useSelector } from 'react-redux';
import type { Dispatch } from '@reduxjs/toolkit';

/**
 * The store's state and dispatch types, filled in by the code that assembles the store (app/store.ts declares
 * `state` and `dispatch` here with a module augmentation). The store is built from every feature's reducer and saga,
 * so it sits above the features; the typed hooks sit below them. Declaring the types here, and letting the top fill
 * them in, gives features and shared code typed hooks without a single import of the top, not even a type-only one.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are declared by the store's assembly
export interface StoreTypes {}

/** The whole store's state: each feature's slice under its key. */
export type RootState = StoreTypes extends { state: infer State } ? State : never;
/** The store's dispatch. */
export type AppDispatch = StoreTypes extends { dispatch: infer StoreDispatch } ? StoreDispatch : Dispatch;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
