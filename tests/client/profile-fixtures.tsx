/**
 * Helpers for the profile, Top 50 and content detail tests: the read calls answered from a small world of
 * members and pieces (the generated operations are mocked by the calling file), the whole SPA rendered at a
 * path, the browser media APIs jsdom lacks (fetch of the peaks, canvas, audio), and touch swipes.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import {
  getCommentsByContent,
  getContentByLink,
  getContentDetail,
  getContentsByKind,
  getContentsByUsername,
  getProfileByUsername,
  getFollowCount,
  getTrendingArtists,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { mockPublicCalls, renderApp } from './auth-app';
import { setViewport } from './auth-fixtures';
import { makeArtist, makeContent } from './explore-fixtures';

type Content = components['schemas']['Content'];
type UserCard = components['schemas']['UserCard'];

export { makeArtist, makeContent };

export const JANE_ID = '64b000000000000000000001';

/** Jane (the default owner of makeContent) with a bio and counts. */
export function janeCard(overrides: Partial<UserCard['user']> = {}): UserCard {
  const card = makeArtist('jane_doe', { contentsCount: 3, followersCount: 1200, followingsCount: 7 });
  return {
    ...card,
    user: { ...card.user, id: JANE_ID, fullName: 'Jane Doe', firstName: 'Jane', lastName: 'Doe', bio: 'Songs and photos from Austin.', ...overrides },
  };
}

/** Three pieces by Jane: a photo, an art piece (monetized) and a song. */
export function janePieces(): Content[] {
  return [
    makeContent({ title: 'Blue Hour', type: 'photos', tags: [{ name: 'Photos' }], subTag: 'Travel', description: 'Lisbon at dusk.' }),
    makeContent({ title: 'Red Fox', type: 'art', tags: [{ name: 'Art' }], subTag: 'Digital Art', isPaidOut: true, knackRate: 0.99 }),
    makeContent({ title: 'Night Drive', type: 'music', tags: [{ name: 'Music' }], subTag: 'Rock', duration: 187, waveformPath: '/files/night-peaks.json' }),
  ];
}

export const notFoundError = (message = 'Not found') => new ApiError(message, 404, 'not_found');

export interface World {
  cards: UserCard[];
  pieces: Content[];
}

/**
 * Answers the read calls from `world`: profiles, uploads, share links, details, feeds, trending artists, and the
 * comments of a piece (none listed; the count is the detail's).
 */
export function mockReads({ cards, pieces }: World) {
  mockPublicCalls();
  const cardOf = (username: string) => cards.find((card) => card.user.username === username);
  jest.mocked(getProfileByUsername).mockImplementation(async ({ path }) => {
    const card = cardOf(path.username);
    if (!card) throw notFoundError('This member does not exist.');
    return card;
  });
  jest.mocked(getContentsByUsername).mockImplementation(async ({ path, query }) => ({
    contents: pieces.filter((piece) => piece.ownerUsername === path.username && (!query?.type || piece.type === query.type)),
    nextCursor: null,
  }));
  jest.mocked(getContentByLink).mockImplementation(async ({ path }) => {
    const content = pieces.find((piece) => piece.link === `/${path.username}-${path.slug}`);
    if (!content) throw notFoundError('This piece does not exist.');
    return { content };
  });
  jest.mocked(getContentDetail).mockImplementation(async ({ path }) => {
    const content = pieces.find((piece) => piece.id === path.contentId);
    if (!content) throw notFoundError();
    const owner = cardOf(content.ownerUsername)?.user ?? janeCard().user;
    return { content, owner, commentsCount: 2, knackStatus: 0 };
  });
  jest.mocked(getCommentsByContent).mockResolvedValue({ comments: [], nextCursor: null, total: null });
  jest.mocked(getContentsByKind).mockResolvedValue({ contents: [], nextCursor: null });
  jest.mocked(getTrendingArtists).mockResolvedValue({ users: [], nextCursor: null });
  jest.mocked(getFollowCount).mockImplementation(async ({ path }) => {
    const card = cards.find((known) => known.user.id === path.id);
    if (!card) throw notFoundError('This member does not exist.');
    return { followersCount: card.followersCount, followingsCount: card.followingsCount, isFollowing: false };
  });
}

/**
 * Jane's world for every test of the calling file: before each, the mocks are reset (spies restored), Jane's
 * three pieces made anew and the read calls answered from them. The returned world is the running test's
 * (its `pieces` may be changed, then passed to `mockReads` again).
 */
export function useJaneWorld(): World {
  const world: World = { cards: [], pieces: [] };
  beforeEach(() => {
    jest.resetAllMocks();
    jest.restoreAllMocks();
    world.cards = [janeCard()];
    world.pieces = janePieces();
    mockReads(world);
  });
  return world;
}

/** The SPA at `path` (null: the current history entry, a reload) on a desktop (1280 × 800) or a phone (390 × 844). */
export function renderAt(path: string | null, device: 'desktop' | 'phone' = 'desktop') {
  if (device === 'phone') setViewport(390, 844);
  else setViewport(1280, 800);
  return renderApp(path);
}

/** The content detail dialog (named by the piece's title). */
export async function detailDialog(title: string) {
  const dialog = await screen.findByRole('dialog', { name: title }, { timeout: 15_000 });
  return within(dialog);
}

/** The title the open detail shows. */
export const shownTitle = () => document.querySelector('.kn-detail__title')?.textContent;

export const path = () => window.location.pathname;

/** A one-finger swipe over `element` by `dx` px sideways. */
export function swipe(element: Element, dx: number, dy = 0) {
  act(() => {
    fireEvent.touchStart(element, { touches: [{ clientX: 200, clientY: 300 }] });
    fireEvent.touchEnd(element, { touches: [], changedTouches: [{ clientX: 200 + dx, clientY: 300 + dy }] });
  });
}

/** The toasts shown (antd message). */
export function toastTexts(): string[] {
  return [...document.querySelectorAll('.ant-message-notice')].map((node) => node.textContent ?? '');
}

/** Canvas, fetch and audio as jsdom lacks them: records what is drawn, serves `peaks`, plays silently. */
export function stubMedia(peaks: number[] = [0.2, 0.9, 0.4, 0.6]) {
  // jsdom lays nothing out: give the waveform a width to draw in.
  jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  const fillRect = jest.fn();
  const context = { clearRect: jest.fn(), fillRect, setTransform: jest.fn(), fillStyle: '' };
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D);
  const fetchMock = jest.fn(async () => ({ ok: true, status: 200, json: async () => peaks }) as Response);
  Object.defineProperty(globalThis, 'fetch', { configurable: true, writable: true, value: fetchMock });
  const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  const pause = jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    this.dispatchEvent(new Event('pause'));
  });
  // Loading a source is jsdom's "not implemented" error, printed with its stack: here there is nothing to load.
  jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  return { fillRect, fetchMock, play, pause };
}

/** Waits until the page's grid lists `title`, and returns that card's title link. */
export async function cardLink(title: string) {
  return waitFor(() => screen.getByRole('link', { name: title }), { timeout: 15_000 });
}
