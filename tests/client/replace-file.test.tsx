/**
 * Replace file, opened from the detail modal's owner menu: a song offers its song and its cover, a photo its picture;
 * a file the upload form would refuse is refused here with the same message before anything is sent; a new cover is
 * sent with its progress, the toast shows and the open piece shows the new cover at once; the earlier files are listed
 * under Versions, and Restore brings one back.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  checkLoggedIn,
  getContentById,
  getContentVersions,
  getUserExt,
  replaceContentImage,
  restoreContentVersion,
  type GetContentVersionsResult,
} from '../../client/src/api/generated/operations';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { cardLink, detailDialog, renderAt, stubMedia, toastTexts, useJaneWorld, JANE_ID } from './profile-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const jane = makeUser({ id: JANE_ID, username: 'jane_doe' });

type Version = GetContentVersionsResult['versions'][number];
const oldCover = (): Version => ({
  id: '65f000000000000000000009',
  kind: 'image',
  fileName: 'first-cover.png',
  size: 24_576,
  mimeType: 'image/png',
  replacedAt: '2026-11-20T10:00:00.000Z',
  restorableUntil: '2026-12-20T10:00:00.000Z',
  url: '/files/images/2026/11/aaaaaaaaaaaaaaaaaaaaaaaa.png?exp=1&sig=x',
  previewUrl: '/files/images/2026/11/aaaaaaaaaaaaaaaaaaaaaaaa-mthumb.webp?exp=1&sig=x',
});

function signIn(versions: Version[] = []) {
  window.localStorage.clear();
  storeAccount('stored-token', jane);
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token', jane));
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
  jest.mocked(getContentById).mockImplementation(async ({ path }) => ({ content: world.pieces.find((piece) => piece.id === path.id)! }));
  jest.mocked(getContentVersions).mockResolvedValue({ versions });
}

/** Jane's profile, `title` opened in the detail modal, then its owner menu's Replace file. */
async function openReplace(title: string) {
  stubMedia();
  const app = renderAt('/jane_doe');
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(await detail.findByRole('button', { name: `Options for ${title}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /Replace file/ }));
  const node = await waitFor(
    () => {
      const found = document.querySelector<HTMLElement>('.kn-replace-modal [role="dialog"]');
      if (!found) throw new Error('no replace-file dialog');
      return found;
    },
    { timeout: 5000 },
  );
  const dialog = within(node);
  await dialog.findByRole('heading', { name: 'Versions' });
  return { ...app, detail, dialog, node };
}

const pick = (node: HTMLElement, kind: 'audio' | 'image', file: File) =>
  fireEvent.change(node.querySelector(`#kn-replace-${kind}`)!, { target: { files: [file] } });

describe('Replace file', () => {
  it('when a song is opened, then its song and its cover are offered, with no earlier files yet', async () => {
    signIn();
    const { dialog } = await openReplace('Night Drive');
    expect(dialog.getByText('Song')).toBeTruthy();
    expect(dialog.getByText('Cover')).toBeTruthy();
    expect(dialog.getByText('No earlier files. A file you replace is kept here for 30 days.')).toBeTruthy();
  });

  it('when a photo is opened, then only its picture is offered', async () => {
    signIn();
    const { dialog } = await openReplace('Blue Hour');
    expect(dialog.getByText('Picture')).toBeTruthy();
    expect(dialog.queryByText('Song')).toBeNull();
  });

  it('when a file the upload form refuses is chosen, then the same message shows and nothing is sent', async () => {
    signIn();
    const { node, dialog } = await openReplace('Night Drive');
    pick(node, 'image', new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Only PNG and JPEG images are accepted.');
    expect(replaceContentImage).not.toHaveBeenCalled();
  });

  it('when a new cover is chosen, then it is sent for the piece with its progress, the toast shows and the open piece shows the new cover', async () => {
    signIn();
    const song = world.pieces.find((piece) => piece.title === 'Night Drive')!;
    const replaced = {
      ...song,
      coverPath: '/files/images/2026/11/bbbbbbbbbbbbbbbbbbbbbbbb.png',
      hthumbPath: '/files/images/2026/11/bbbbbbbbbbbbbbbbbbbbbbbb-hthumb.webp',
    };
    jest.mocked(replaceContentImage).mockResolvedValue({ content: replaced, message: 'The new file is in place.' });
    const { node, store } = await openReplace('Night Drive');
    pick(node, 'image', new File(['png'], 'sunrise.png', { type: 'image/png' }));

    await waitFor(() => expect(toastTexts()).toContain('The new file is in place.'));
    const [args, options] = jest.mocked(replaceContentImage).mock.calls[0]!;
    expect(args.path).toEqual({ id: song.id });
    expect((args.body.get('file') as File).name).toBe('sunrise.png');
    expect(options?.onUploadProgress).toEqual(expect.any(Function));
    expect(store.getState().contentDetail.content?.coverPath).toBe(replaced.coverPath);
    // The piece's reads and its versions are asked again.
    await waitFor(() => expect(jest.mocked(getContentVersions).mock.calls.length).toBeGreaterThan(1));
  });

  it('when the server refuses the file, then its message shows on the field and the piece is as it was', async () => {
    signIn();
    const { ApiError } = await import('../../client/src/api/http');
    jest.mocked(replaceContentImage).mockRejectedValue(new ApiError('Image size should be less than 20 MB.', 413, 'payload_too_large'));
    const { node, dialog, store } = await openReplace('Blue Hour');
    const before = store.getState().contentDetail.content;
    pick(node, 'image', new File(['png'], 'big.png', { type: 'image/png' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Image size should be less than 20 MB.');
    expect(store.getState().contentDetail.content).toEqual(before);
  });

  it('when an earlier cover is restored, then the call names it, the toast shows and the open piece shows it', async () => {
    signIn([oldCover()]);
    const song = world.pieces.find((piece) => piece.title === 'Night Drive')!;
    const restored = { ...song, coverPath: '/files/images/2026/11/aaaaaaaaaaaaaaaaaaaaaaaa.png' };
    jest.mocked(restoreContentVersion).mockResolvedValue({ content: restored, message: 'The earlier file is back in place.' });
    const { dialog, store } = await openReplace('Night Drive');
    expect(await dialog.findByText('Replaced Nov 20, 2026 · restorable until Dec 20, 2026')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Restore cover first-cover.png' }));
    await waitFor(() => expect(toastTexts()).toContain('The earlier file is back in place.'));
    expect(jest.mocked(restoreContentVersion).mock.calls[0]![0]).toEqual({ path: { id: song.id, versionId: oldCover().id } });
    expect(store.getState().contentDetail.content?.coverPath).toBe(restored.coverPath);
  });
});
