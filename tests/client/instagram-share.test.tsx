/**
 * Posting to Instagram from the share modal: a member presses Instagram and the link is copied; on a server with no
 * Instagram app they are told what posting needs; without a connection they connect (leaving for Instagram's consent
 * page, to come back to the same page); connected, they see the caption and post, told the spec's success message.
 * Back from the consent page, the outcome is told once and the address cleaned.
 */
import { fireEvent, waitFor, within } from '@testing-library/react';
import { checkLoggedIn, connectInstagram, disconnectInstagram, getInstagramConnection, postToInstagram } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { leavePage } from '../../client/src/lib/leavePage';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { cardLink, detailDialog, renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const SONG_URL = `${window.location.origin}/jane_doe-night-drive`;
const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' });
const NOT_CONFIGURED = 'Posting to Instagram is not offered on this server: its operator has not set INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET.';

let clipboard: jest.Mock;
beforeEach(() => {
  window.localStorage.clear();
  clipboard = jest.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: clipboard } });
  storeAccount('stored-token', bea);
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh', bea));
});

/** Bea on Jane's profile: Night Drive's detail, its Share, then Instagram. */
async function pressInstagram(path = '/jane_doe') {
  stubMedia();
  const app = renderAt(path);
  fireEvent.click(await cardLink('Night Drive'));
  const detail = await detailDialog('Night Drive');
  fireEvent.click(detail.getByRole('button', { name: 'Share' }));
  const node = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('.kn-share [role="dialog"]');
    if (!found) throw new Error('no share dialog');
    return found;
  });
  const dialog = within(node);
  const button = dialog.getByRole('button', { name: 'Share on Instagram' });
  fireEvent.click(button);
  return { ...app, dialog, button };
}

const song = () => world.pieces.find((piece) => piece.title === 'Night Drive')!;

it('when the server has no Instagram app, then the link is copied and the member is told what posting needs', async () => {
  jest.mocked(getInstagramConnection).mockResolvedValue({ configured: false, connected: false, username: null, expiresAt: null, message: NOT_CONFIGURED });
  const { dialog, button } = await pressInstagram();
  expect(await dialog.findByText(NOT_CONFIGURED)).toBeTruthy();
  expect(dialog.getByText(/The link is copied: Instagram has no share link on the web/)).toBeTruthy();
  expect(clipboard).toHaveBeenCalledWith(SONG_URL);
  expect(button.getAttribute('aria-expanded')).toBe('true');
  expect(postToInstagram).not.toHaveBeenCalled();
});

it('when the member has not connected, then Connect Instagram leaves for the consent page, to come back to this page', async () => {
  const leave = jest.spyOn(leavePage, 'go').mockImplementation(() => undefined);
  jest.mocked(getInstagramConnection).mockResolvedValue({ configured: true, connected: false, username: null, expiresAt: null, message: null });
  jest.mocked(connectInstagram).mockResolvedValue({ authorizeUrl: 'https://www.instagram.com/oauth/authorize?client_id=1' });
  const { dialog } = await pressInstagram();
  fireEvent.click(await dialog.findByRole('button', { name: 'Connect Instagram' }));
  await waitFor(() => expect(leave).toHaveBeenCalledWith('https://www.instagram.com/oauth/authorize?client_id=1'));
  expect(connectInstagram).toHaveBeenCalledWith({ body: { returnTo: window.location.pathname } }, expect.anything());
  expect(window.location.pathname).toBe('/jane_doe-night-drive');
});

it('when connected, then the caption is shown, Post to Instagram posts it with the spec’s message and links the post', async () => {
  const expiresAt = new Date(Date.now() + 50 * 86_400_000).toISOString();
  jest.mocked(getInstagramConnection).mockResolvedValue({ configured: true, connected: true, username: 'bea.moon', expiresAt, message: null });
  jest.mocked(postToInstagram).mockResolvedValueOnce({
    message: 'The content was shared to Instragram Successfully.',
    mediaId: '17900000000000001',
    permalink: 'https://www.instagram.com/p/abc/',
    username: 'bea.moon',
  });
  const { dialog } = await pressInstagram();
  expect(await dialog.findByText('@bea.moon')).toBeTruthy();
  expect(dialog.getByText(/Night Drive by jane_doe on Knack/).textContent).toBe(`Night Drive by jane_doe on Knack${SONG_URL}`);
  fireEvent.click(dialog.getByRole('button', { name: 'Post to Instagram' }));
  await waitFor(() => expect(toastTexts()).toContain('The content was shared to Instragram Successfully.'));
  expect(postToInstagram).toHaveBeenCalledWith({ body: { contentId: song().id } }, expect.anything());
  expect(dialog.getByRole('link', { name: 'See the post on Instagram' }).getAttribute('href')).toBe('https://www.instagram.com/p/abc/');

  jest.mocked(postToInstagram).mockRejectedValueOnce(new ApiError('This piece was posted to your Instagram a moment ago.', 409, 'conflict'));
  fireEvent.click(dialog.getByRole('button', { name: 'Post to Instagram' }));
  // A refusal is told by the data layer's one error toast (the real HTTP client's, mocked away here); the panel stays.
  await waitFor(() => expect(postToInstagram).toHaveBeenCalledTimes(2));
  await waitFor(() => expect((dialog.getByRole('button', { name: /Post to Instagram$/ }) as HTMLButtonElement).className).not.toMatch(/loading/));
  expect(toastTexts().filter((text) => text.startsWith('The content was shared'))).toHaveLength(1);
});

it('when connected, then Disconnect forgets the account and the panel offers to connect again', async () => {
  jest
    .mocked(getInstagramConnection)
    .mockResolvedValueOnce({ configured: true, connected: true, username: 'bea.moon', expiresAt: new Date().toISOString(), message: null })
    .mockResolvedValue({ configured: true, connected: false, username: null, expiresAt: null, message: null });
  jest.mocked(disconnectInstagram).mockResolvedValue({ message: 'Instagram is disconnected.' });
  const { dialog } = await pressInstagram();
  fireEvent.click(await dialog.findByRole('button', { name: 'Disconnect @bea.moon' }));
  expect(await dialog.findByRole('button', { name: 'Connect Instagram' })).toBeTruthy();
});

it('when the member comes back from the consent page, then the outcome is told once and the address is cleaned', async () => {
  jest
    .mocked(getInstagramConnection)
    .mockResolvedValue({ configured: true, connected: true, username: 'bea.moon', expiresAt: new Date().toISOString(), message: null });
  stubMedia();
  renderAt('/jane_doe?instagram=failed&reason=The%20user%20denied%20your%20request.');
  await waitFor(() => expect(toastTexts()).toContain('The user denied your request.'));
  await waitFor(() => expect(window.location.search).toBe(''));
  expect(window.location.pathname).toBe('/jane_doe');
});
