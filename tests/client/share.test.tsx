/**
 * The share modal and its copy messages: opened from the detail modal's Share button, tabs Share, Embed and a
 * disabled Message; each site's share page for the piece's link, the copyable link, Instagram by copy; the
 * embed mask and size making the iframe snippet, each option's help and the preview; switching to Embed pauses what plays; the invite by email
 * (visitors are asked to log in).
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { checkLoggedIn, getContentById, inviteUser } from '../../client/src/api/generated/operations';
import { modalOpened } from '../../client/src/lib/ui';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { cardLink, detailDialog, notFoundError, renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const ORIGIN = window.location.origin;
const SONG_URL = `${ORIGIN}/jane_doe-night-drive`;
const enc = encodeURIComponent;

let clipboard: jest.Mock;
beforeEach(() => {
  window.localStorage.clear();
  clipboard = jest.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: clipboard } });
});

/** Jane's profile, the piece opened in the detail modal, then its Share button: the share dialog. */
async function openShare(title = 'Night Drive', device: 'desktop' | 'phone' = 'desktop') {
  const media = stubMedia();
  const app = renderAt('/jane_doe', device);
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(detail.getByRole('button', { name: 'Share' }));
  const dialog = await shareDialog();
  expect(dialog.getByText(`Share “${title}”`)).toBeTruthy();
  return { ...app, detail, dialog, media };
}

/** The share dialog (antd names every dialog by the same test id in jsdom: found by its class instead). */
async function shareDialog() {
  const node = await waitFor(
    () => {
      const found = document.querySelector<HTMLElement>('.kn-share [role="dialog"]');
      if (!found) throw new Error('no share dialog');
      return found;
    },
    { timeout: 5000 },
  );
  return within(node);
}

const song = () => world.pieces.find((piece) => piece.title === 'Night Drive')!;

describe('the Share tab', () => {
  it('when Share is pressed in the detail, then tabs Share, Embed and a disabled Message, and each site shares the piece’s link', async () => {
    const { dialog } = await openShare();
    expect(dialog.getByRole('tab', { name: 'Share' }).getAttribute('aria-selected')).toBe('true');
    expect(dialog.getByRole('tab', { name: 'Embed' })).toBeTruthy();
    expect(dialog.getByRole('tab', { name: 'Message' }).getAttribute('aria-disabled')).toBe('true');

    const href = (site: string) => dialog.getByRole('link', { name: `Share on ${site}` }).getAttribute('href');
    const text = enc('Night Drive on Knack');
    expect(href('Twitter')).toBe(`https://twitter.com/intent/tweet?url=${enc(SONG_URL)}&text=${text}`);
    expect(href('Facebook')).toBe(`https://www.facebook.com/sharer/sharer.php?u=${enc(SONG_URL)}`);
    expect(href('Tumblr')).toBe(`https://www.tumblr.com/widgets/share/tool?canonicalUrl=${enc(SONG_URL)}&title=${text}`);
    expect(href('Pinterest')).toMatch(
      new RegExp(`^https://www\\.pinterest\\.com/pin/create/button/\\?url=${enc(SONG_URL).replace(/[.%]/g, '\\$&')}&description=${text}`),
    );
    expect(href('Email')).toBe(`mailto:?subject=${text}&body=${enc(`Night Drive on Knack: ${SONG_URL}`)}`);
    const twitter = dialog.getByRole('link', { name: 'Share on Twitter' });
    expect([twitter.getAttribute('target'), twitter.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer']);
    expect((dialog.getByLabelText('Share link') as HTMLInputElement).value).toBe(SONG_URL);
  });

  it('when the link is copied, then "URL copied."; when the clipboard refuses, then "Failed to copy text: {reason}"', async () => {
    const { dialog } = await openShare();
    const copy = () =>
      fireEvent.click(within(dialog.getByLabelText('Share link').closest('.kn-share__field') as HTMLElement).getByRole('button', { name: 'Copy' }));
    copy();
    await waitFor(() => expect(toastTexts()).toContain('URL copied.'));
    expect(clipboard).toHaveBeenCalledWith(SONG_URL);

    clipboard.mockRejectedValueOnce(new Error('denied'));
    copy();
    await waitFor(() => expect(toastTexts()).toContain('Failed to copy text: denied'));
  });

  it('when Instagram is chosen, then the link is copied and the visitor is told to paste it (Instagram has no web share page)', async () => {
    const { dialog } = await openShare();
    fireEvent.click(dialog.getByRole('button', { name: 'Share on Instagram' }));
    await waitFor(() =>
      expect(toastTexts()).toEqual(expect.arrayContaining(['URL copied.', expect.stringContaining('Instagram has no share link on the web')])),
    );
    expect(clipboard).toHaveBeenCalledWith(SONG_URL);
  });

  it('when the share modal opens for a piece that is not the open one, then it reads it; one that cannot be read says so', async () => {
    stubMedia();
    const photo = world.pieces[0]!;
    jest.mocked(getContentById).mockResolvedValueOnce({ content: photo }).mockRejectedValueOnce(notFoundError('Content not found'));
    const { store } = renderAt('/jane_doe');
    await cardLink('Blue Hour');
    act(() => {
      store.dispatch(modalOpened({ name: 'share', contentId: photo.id }));
    });
    expect(await (await shareDialog()).findByText('Share “Blue Hour”')).toBeTruthy();
    expect(getContentById).toHaveBeenCalledWith({ path: { id: photo.id } }, expect.anything());
    act(() => {
      store.dispatch(modalOpened({ name: 'share', contentId: '64c0000000000000000000ff' }));
    });
    expect(await screen.findByText('This piece is not available.')).toBeTruthy();
  });
});

describe('the Embed tab', () => {
  it('when Embed is chosen while the song plays, then the audio pauses and the player is asked to pause', async () => {
    const media = stubMedia();
    const { store } = renderAt('/jane_doe');
    fireEvent.click(await cardLink('Night Drive'));
    const detail = await detailDialog('Night Drive');
    fireEvent.click(detail.getByRole('button', { name: 'Play' }));
    expect(await detail.findByRole('button', { name: 'Pause' })).toBeTruthy();
    // Before the share modal renders: its components take the store's dispatch when they render.
    const dispatch = jest.spyOn(store, 'dispatch');
    fireEvent.click(detail.getByRole('button', { name: 'Share' }));
    const dialog = await shareDialog();
    fireEvent.click(dialog.getByRole('tab', { name: 'Embed' }));
    expect(dispatch).toHaveBeenCalledWith({ type: 'player/pauseRequested' });
    expect(media.pause).toHaveBeenCalled();
    expect(await detail.findByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('when options and sizes change, then the snippet follows the bit mask (Header 1, Footer 2, Slideshow 4, Quintos 8; default 7) and the size', async () => {
    const { dialog } = await openShare();
    fireEvent.click(dialog.getByRole('tab', { name: 'Embed' }));
    const box = (label: string) => dialog.getByRole('checkbox', { name: label }) as HTMLInputElement;
    expect(['Header', 'Footer', 'Slideshow', 'Quintos'].map((label) => box(label).checked)).toEqual([true, true, true, false]);
    const snippet = () => (dialog.getByLabelText('Embed code') as HTMLTextAreaElement).value;
    const src = (mask: number) => `${ORIGIN}/music-player.html?userName=jane_doe&contentId=${song().id}&options=${mask}`;
    expect(snippet()).toBe(
      `<iframe src="${src(7)}" width="640" height="480" title="Night Drive on Knack" frameborder="0" allow="autoplay; encrypted-media" loading="lazy"></iframe>`,
    );

    fireEvent.click(box('Footer'));
    expect(snippet()).toContain(`src="${src(5)}"`);
    fireEvent.click(box('Quintos'));
    expect(snippet()).toContain(`src="${src(13)}"`);
    fireEvent.click(dialog.getByRole('radio', { name: 'Large 1024×768' }));
    expect(snippet()).toContain('width="1024" height="768"');
    fireEvent.click(dialog.getByRole('radio', { name: 'Small 400×300' }));
    expect(snippet()).toContain('width="400" height="300"');

    fireEvent.click(dialog.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toastTexts()).toContain('Embed code copied.'));
    expect(clipboard).toHaveBeenCalledWith(snippet());
  });

  it('when the Embed tab shows, then each option says what it does, and the preview is the player with the options and size chosen', async () => {
    const { dialog } = await openShare();
    fireEvent.click(dialog.getByRole('tab', { name: 'Embed' }));
    const help = (label: string) => {
      const box = dialog.getByRole('checkbox', { name: label });
      return document.getElementById(box.getAttribute('aria-describedby')!)?.textContent;
    };
    expect(['Header', 'Footer', 'Slideshow', 'Quintos'].map(help)).toEqual([
      'The title and the artist’s name above the player.',
      'Knack’s name and a link to the piece on Knack below the player.',
      'While a song plays, the artist’s other pieces’ pictures take turns with its cover.',
      'Up next: the artist’s next five songs, which the player plays one after another.',
    ]);
    const preview = () => dialog.getByTitle('Preview of the player: Night Drive') as HTMLIFrameElement;
    const src = (mask: number) => `${ORIGIN}/music-player.html?userName=jane_doe&contentId=${song().id}&options=${mask}`;
    expect([preview().getAttribute('src'), preview().width, preview().height]).toEqual([src(7), '640', '480']);
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Quintos' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Header' }));
    expect(preview().getAttribute('src')).toBe(src(14));
    fireEvent.click(dialog.getByRole('radio', { name: 'Small 400×300' }));
    expect([preview().width, preview().height]).toEqual(['400', '300']);
  });

  it('when on a desktop, then the modal is 627 wide', async () => {
    await openShare('Night Drive', 'desktop');
    expect((document.querySelector('.kn-share .ant-modal') as HTMLElement).style.width).toBe('627px');
  });

  it('when on a phone, then the modal takes the whole width', async () => {
    await openShare('Night Drive', 'phone');
    expect(document.querySelector('.kn-share.kn-share--phone')).not.toBeNull();
    expect((document.querySelector('.kn-share .ant-modal') as HTMLElement).style.width).toBe('100%');
  });
});

describe('invite by email', () => {
  it('when a visitor asks to invite, then the login modal opens and brings the share modal back after the login', async () => {
    const { dialog, store } = await openShare();
    fireEvent.click(dialog.getByRole('button', { name: 'Log in to invite' }));
    await waitFor(() => expect(store.getState().ui.modal).toBe('login'));
    expect(store.getState().ui.modalProps).toMatchObject({ origin: 'onClickKnack', callback: modalOpened({ name: 'share', contentId: song().id }) });
    expect(inviteUser).not.toHaveBeenCalled();
  });

  it('when a member invites, then a wrong address is refused on the spot and a right one is sent: "Invite sent successfully"', async () => {
    const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com' });
    storeAccount('stored-token', bea);
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh', bea));
    jest.mocked(inviteUser).mockResolvedValue({ message: 'Invite sent successfully' });
    const { dialog } = await openShare();
    const email = dialog.getByLabelText('Invite by email');
    const send = await dialog.findByRole('button', { name: 'Send invite' });

    fireEvent.change(email, { target: { value: 'not-an-email' } });
    fireEvent.click(send);
    expect((await dialog.findByRole('alert')).textContent).toBe('Email must be valid');
    expect(inviteUser).not.toHaveBeenCalled();

    fireEvent.change(email, { target: { value: ' friend@example.com ' } });
    fireEvent.click(send);
    await waitFor(() => expect(toastTexts()).toContain('Invite sent successfully'));
    expect(inviteUser).toHaveBeenCalledWith(
      { body: { userId: bea.id, contentId: song().id, email: 'friend@example.com' } },
      expect.objectContaining({ quiet: undefined }),
    );
    expect((email as HTMLInputElement).value).toBe('');
  });
});
