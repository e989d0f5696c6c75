/**
 * Helpers for the Explore and search tests: pieces, artists and suggestions shaped as the content and user
 * calls answer them (openapi Content, UserCard, TitleSuggestion), a deferred promise to hold a call in
 * flight, and the pages rendered at a path with a probe showing where the router is.
 */
import type { ReactNode } from 'react';
import { screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import type { components } from '../../generated/openapi';
import { renderWithStore } from './render';

type Content = components['schemas']['Content'];
type UserCard = components['schemas']['UserCard'];
type TitleSuggestion = components['schemas']['TitleSuggestion'];
type TagType = components['schemas']['TagType'];

let counter = 0;
const nextId = () => (0x64d000000000 + ++counter).toString(16).padStart(24, '0');

export function makeContent(overrides: Partial<Content> = {}): Content {
  const id = overrides.id ?? nextId();
  const title = overrides.title ?? `Piece ${id.slice(-4)}`;
  const ownerUsername = overrides.ownerUsername ?? 'jane_doe';
  const type: TagType = overrides.type ?? 'music';
  return {
    id,
    type,
    link: `/${ownerUsername}-${title.toLowerCase().replace(/\s+/g, '-')}`,
    featured: false,
    ownerId: '64b000000000000000000001',
    ownerName: ownerUsername,
    ownerUsername,
    payerId: null,
    title,
    description: 'A description',
    filePath: `/files/${id}.mp3`,
    thumbPath: `/files/${id}.thumb.webp`,
    wthumbPath: `/files/${id}.w.webp`,
    hthumbPath: `/files/${id}.h.webp`,
    mthumbPath: `/files/${id}.m.webp`,
    fileName: 'file',
    fileSize: 1000,
    fileType: type === 'music' ? 'audio/mpeg' : 'image/jpeg',
    isImage: type !== 'music',
    isAudio: type === 'music',
    isOrlando: false,
    isPaidOut: false,
    isHide: false,
    subTag: 'Rock',
    tags: [{ name: 'Music' }],
    setting: { public: true, private: false, followers: false, hidePlayCount: false, hideViewCount: false },
    knackValue: 0,
    knackRate: 0.05,
    reactedCount: 0,
    uploadedAt: '2026-03-01T00:00:00.000Z',
    projectId: null,
    processing: 'ready',
    ...overrides,
  };
}

/** A page of `count` pieces titled `${prefix} 1…n`. */
export function contentPage(prefix: string, count: number, nextCursor: string | null = null) {
  return { contents: Array.from({ length: count }, (_, index) => makeContent({ title: `${prefix} ${index + 1}` })), nextCursor };
}

export function makeArtist(username: string, overrides: Partial<UserCard> = {}): UserCard {
  return {
    user: {
      id: nextId(),
      username,
      fullName: '',
      firstName: '',
      lastName: '',
      image: null,
      headerImage: null,
      bio: '',
      userType: 0,
    },
    contentsCount: 3,
    followersCount: 12,
    followingsCount: 1,
    ...overrides,
  };
}

export function makeSuggestion(title: string, overrides: Partial<TitleSuggestion> = {}): TitleSuggestion {
  return {
    id: nextId(),
    title,
    ownerUsername: 'jane_doe',
    ownerName: 'jane_doe',
    type: 'music',
    knackPrice: 0.05,
    link: `/jane_doe-${title.toLowerCase().replace(/\s+/g, '-')}`,
    thumbPath: '/files/x.thumb.webp',
    ...overrides,
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Renders the router's current path and query, for assertions on navigation. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

/** The router's current path and query, as the probe shows them. */
export const currentLocation = () => screen.getByTestId('location').textContent;

/**
 * `routes` (Route elements) at `path` with a real store, after `before` (what stands outside the routes, as
 * the search box); any other path renders nothing. The location probe is rendered too.
 */
export function renderRoutes(routes: ReactNode, { path, before }: { path: string; before?: ReactNode }) {
  return renderWithStore(
    <>
      {before}
      <Routes>
        {routes}
        <Route path="*" element={null} />
      </Routes>
      <LocationProbe />
    </>,
    { path },
  );
}

/** An IntersectionObserver stand-in whose entries the test triggers. */
export class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** Says every observed element is in view, on every live observer. */
  static enterAll() {
    for (const observer of FakeIntersectionObserver.instances) {
      if (!observer.targets.size) continue;
      const entries = [...observer.targets].map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry);
      observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}
