/** Accounts shaped as the auth calls answer them (openapi AuthResponse / User), and app helpers. */
import { lazy } from 'react';
import type { components } from '../../generated/openapi';
import { ApiError } from '../../client/src/api/http';
import type { AppRoute } from '../../client/src/app/routes';
import { ACCOUNT_KEY } from '../../client/src/features/auth';

type User = components['schemas']['User'];
type AuthResponse = components['schemas']['AuthResponse'];

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '64b000000000000000000001',
    username: 'jane_doe',
    fullName: 'Jane Doe',
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    image: null,
    headerImage: null,
    isActive: true,
    sex: null,
    birthday: null,
    bio: '',
    userType: 0,
    role: 'user',
    updated: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Knack's admin (their email is in the tests' ADMIN_EMAILS): what the admin pages are opened as. */
export const makeAdmin = () =>
  makeUser({ id: '64b0000000000000000000a1', username: 'knack_admin', fullName: 'Knack Admin', email: 'admin@knack.example', role: 'admin' });

export function authAnswer(token: string | null, user: User | null = makeUser(), message = 'Success'): AuthResponse {
  return { user, token, message, reacted_contents: token ? ['64c000000000000000000001', '64c000000000000000000002'] : [] };
}

/** Puts an account in localStorage as a previous visit would have left it. */
export function storeAccount(token = 'stored-token', user: User = makeUser()) {
  window.localStorage.setItem(ACCOUNT_KEY, JSON.stringify({ user, token }));
}

export function storedAccount(): { user: User; token: string } | null {
  const raw = window.localStorage.getItem(ACCOUNT_KEY);
  return raw ? (JSON.parse(raw) as { user: User; token: string }) : null;
}

export const notFound = () => new ApiError('Not found', 404, 'not_found');
export const unauthorized = (message = 'Your session has expired. Please log in again.') => new ApiError(message, 401, 'unauthorized');

/** A members-only screen of the tests' own, for the route guard tests (no API calls of its own). */
export const membersRoute: AppRoute = {
  name: 'members-test',
  path: '/members-test',
  metaPage: 'meta',
  guest: false,
  Page: lazy(async () => ({ default: () => <h1>Members page</h1> })),
  preload: async () => undefined,
};

export function setViewport(width: number, height: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, writable: true, value: height });
}
