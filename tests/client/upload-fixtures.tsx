/**
 * Helpers for the upload tests: upload answers shaped as the upload calls answer them (openapi
 * UploadResponse), files, a deferred promise to hold a call in flight, and a signed-in SPA.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import { checkLoggedIn, getAllPlans, getAuthProviders, getSubscription, getUserExt } from '../../client/src/api/generated/operations';
import type { RequestOptions } from '../../client/src/api/http';
import { authAnswer, makeUser, setViewport, storeAccount } from './auth-fixtures';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import { plansAnswer } from './subscription-fixtures';

type UploadResponse = components['schemas']['UploadResponse'];
type User = components['schemas']['User'];

export function imageAnswer(path = 'images/2026/11/cover.jpg', originalName = 'cover.png'): UploadResponse {
  return {
    path,
    upload: {
      id: `up-${path}`,
      kind: 'image',
      status: 'ready',
      originalName,
      size: 48_213,
      mimeType: 'image/jpeg',
      url: `/files/${path}`,
      width: 1200,
      height: 800,
      thumbs: {
        thumb: `/files/${path}.thumb.webp`,
        mthumb: `/files/${path}.m.webp`,
        hthumb: `/files/${path}.h.webp`,
        wthumb: `/files/${path}.w.webp`,
      },
    },
  };
}

export function audioAnswer(path = 'audio/2026/11/song.mp3', originalName = 'song.mp3', duration = 187.4): UploadResponse {
  return {
    path,
    upload: {
      id: `up-${path}`,
      kind: 'audio',
      status: 'ready',
      originalName,
      size: 3_565_158,
      mimeType: 'audio/mpeg',
      url: `/files/${path}`,
      duration,
      waveformUrl: `/files/${path}.peaks.json`,
    },
  };
}

export function makeFile(name: string, type: string, size?: number): File {
  const file = new File(['fake bytes'], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

export const pngFile = (name = 'cover.png') => makeFile(name, 'image/png');
export const mp3File = (name = 'song.mp3') => makeFile(name, 'audio/mpeg');

/** A promise held open until the test settles it (a call in flight). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The options the generated operation was last called with (progress callback, abort signal). */
export function lastOptions(mock: jest.Mock | jest.MockedFunction<(...args: never[]) => unknown>): RequestOptions {
  const calls = (mock as jest.Mock).mock.calls;
  return (calls[calls.length - 1]?.[1] ?? {}) as RequestOptions;
}

/** The calls every signed-in start makes (the generated operations are mocked by the test file). */
export function mockMemberCalls(user: User) {
  mockPublicCalls();
  jest.mocked(getAuthProviders).mockResolvedValue({ google: null, facebook: null });
  jest
    .mocked(getUserExt)
    .mockResolvedValue({ userExt: { country: 'US', city: 'Austin', state: 'Texas', timezone: 'America/Chicago', pCredit: 0, sCredit: 0 } });
  jest.mocked(getSubscription).mockResolvedValue({ subscription: null });
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer([]));
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token', user));
}

/** The SPA on home, signed in as `user` (a stored account, reloaded). */
export async function renderSignedIn(user: User = makeUser(), viewport: [number, number] = [1280, 800]) {
  setViewport(...viewport);
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  const app = renderApp('/');
  await homeHeading();
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  return app;
}

/** The open dialog named `name` (by its aria-labelledby title; cheaper than a role query on the whole SPA). */
export async function findDialog(name: string) {
  const dialog = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((candidate) => {
      const labelId = candidate.getAttribute('aria-labelledby');
      const title = labelId ? document.getElementById(labelId)?.textContent : candidate.getAttribute('aria-label');
      return title === name && candidate.closest('.ant-modal-wrap')?.getAttribute('style')?.includes('display: none') !== true;
    });
    if (!found) throw new Error(`no dialog ${name}`);
    return found;
  });
  return within(dialog);
}

/** Chooses a file in the file input labelled `label` (inside the open dialog). */
export function chooseFile(label: string, file: File) {
  const input = screen.getByLabelText(label, { selector: 'input[type="file"]' });
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
}

export function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

// Role queries walk the accessibility tree of the whole SPA (slow in jsdom); the helpers below that run in
// loops use plain selectors for the same elements.

/** The antd Select labelled `label` (its search input has the role combobox and that label). */
function combobox(label: string): HTMLInputElement {
  const found = document.querySelector<HTMLInputElement>(`input[role="combobox"][aria-label="${label}"]`);
  if (!found) throw new Error(`no combobox ${label}`);
  return found;
}

/** Chooses the main tag (Music, Art, Photos) and waits for its sub-tag field. */
export async function chooseMainTag(name: 'Music' | 'Art' | 'Photos') {
  const radio = document.querySelector<HTMLInputElement>(`input[type="radio"][name="mainTag"][value="${name}"]`);
  if (!radio) throw new Error(`no main tag ${name}`);
  fireEvent.click(radio);
  await waitFor(() => expect(combobox(name === 'Music' ? 'Genre' : 'Category').disabled).toBe(false));
}

/** Picks `option` in the antd Select labelled `label`. */
export async function pick(label: string, option: string) {
  await waitFor(() => expect(combobox(label).disabled).toBe(false));
  act(() => {
    fireEvent.mouseDown(combobox(label));
  });
  const item = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`.ant-select-item-option[title="${option}"]`);
    if (!found) throw new Error(`no option ${option}`);
    return found;
  });
  act(() => {
    fireEvent.click(item);
  });
}

/** The progress bar with the accessible name `name`: its value. */
export function progressValue(name: string): number {
  const bar = document.querySelector(`[role="progressbar"][aria-label="${name}"]`);
  if (!bar) throw new Error(`no progress bar ${name}`);
  return Number(bar.getAttribute('aria-valuenow'));
}

/** The toasts shown (antd message). */
export function toastTexts(): string[] {
  return [...document.querySelectorAll('.ant-message-notice')].map((node) => node.textContent ?? '');
}

/** jsdom makes no object URLs; the pickers and croppers only need a string. */
export function stubObjectUrls() {
  let n = 0;
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: jest.fn(() => `blob:test/${++n}`) });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: jest.fn() });
}
