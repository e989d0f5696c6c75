/**
 * The classic upload modal in the whole SPA: the completion bar's weights,
 * every empty-field message, Music needing audio, userType 50 limited to Music, the file sent as soon as it is
 * chosen with its byte progress (status uploading → done, inputs disabled meanwhile), a 413 answer shown and
 * setting failed, the client's own size and type checks, the form reset on open, the save, and a visitor
 * sent to log in first. The generated operations are mocked; the store, sagas, router and toasts are real.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  getContentById,
  getListingQuote,
  saveContent,
  signin,
  uploadContentAudio,
  uploadContentPhoto,
  type SaveContentResult,
  type UploadContentPhotoResult,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { modalClosed, modalOpened } from '../../client/src/lib/ui';
import { completion } from '../../client/src/features/upload/testing';
import { authAnswer, makeUser, setViewport } from './auth-fixtures';
import { homeHeading, mockPublicCalls, renderApp } from './auth-app';
import {
  audioAnswer,
  chooseFile,
  chooseMainTag,
  deferred,
  findDialog,
  imageAnswer,
  lastOptions,
  makeFile,
  mp3File,
  pick,
  pngFile,
  progressValue,
  renderSignedIn,
  stubObjectUrls,
  toastTexts,
  type,
} from './upload-fixtures';

import { makeContent } from './explore-fixtures';
import { QUIET_FLOW_CALL } from './call-options';
import { sentEventNames } from './event-fixtures';

jest.mock('../../client/src/api/generated/operations');

const savedContent = (overrides: Partial<SaveContentResult['content']> = {}): SaveContentResult['content'] =>
  makeContent({
    id: '64d000000000000000000001',
    ownerId: makeUser().id,
    ownerName: 'Jane Doe',
    title: 'Lisbon at dawn',
    type: 'photos',
    subTag: 'Travel',
    tags: [{ name: 'Photos' }],
    ...overrides,
  });

beforeEach(() => {
  jest.resetAllMocks();
  stubObjectUrls();
  jest.mocked(uploadContentPhoto).mockResolvedValue(imageAnswer());
  jest.mocked(uploadContentAudio).mockResolvedValue(audioAnswer());
  // The payment modal that opens after a save reads the piece and its listing fee (tested in wallet-payments).
  jest.mocked(getContentById).mockReturnValue(new Promise(() => undefined));
  jest.mocked(getListingQuote).mockReturnValue(new Promise(() => undefined));
});

/** Signed in, the Upload button of the top navigation pressed: the classic modal. */
async function openUpload(user = makeUser()) {
  const app = await renderSignedIn(user);
  fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Upload' }));
  const dialog = await findDialog('Upload content');
  await dialog.findByRole('heading', { name: 'Upload your work' });
  return { ...app, dialog };
}

const dialogSubmit = async () => {
  const dialog = await findDialog('Upload content');
  fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));
};
const completionNow = () => progressValue('Form completion');

describe('completion bar (title 30, description 20, cover 30, tag 20)', () => {
  it('when the weights are summed, then each part counts its weight and a tag counts once both tag and sub-tag are chosen', () => {
    const none = { values: {}, hasPhoto: false, hasAudio: false };
    expect(completion('content', none)).toBe(0);
    expect(completion('content', { ...none, values: { title: 'x' } })).toBe(30);
    expect(completion('content', { ...none, values: { title: '  ' } })).toBe(0);
    expect(completion('content', { ...none, values: { description: 'x' } })).toBe(20);
    expect(completion('content', { ...none, hasPhoto: true })).toBe(30);
    expect(completion('content', { ...none, values: { mainTag: 'Art' } })).toBe(0);
    expect(completion('content', { ...none, values: { mainTag: 'Art', subTag: 'Pixel Art' } })).toBe(20);
    // Audio is required for Music but carries no weight on the classic form.
    expect(completion('content', { ...none, hasAudio: true })).toBe(0);
    // Top 50: 20 each for title, email, description, photo, tag; artist: title, tag, description, audio, photo.
    expect(completion('top50', { values: { title: 't', email: 'a@b.co', description: 'd' }, hasPhoto: true, hasAudio: true })).toBe(80);
    expect(completion('top50', { values: { email: 'not-an-email' }, hasPhoto: false, hasAudio: false })).toBe(0);
    expect(completion('artist', { values: { title: 't', description: 'd' }, hasPhoto: true, hasAudio: true })).toBe(80);
  });

  it('when the form is filled in, then the bar moves 0 → 30 → 50 → 70 → 100', async () => {
    await openUpload();
    expect(completionNow()).toBe(0);
    type('Title', 'Lisbon at dawn');
    await waitFor(() => expect(completionNow()).toBe(30));
    type('Description', 'Tram 28 before the crowds');
    await waitFor(() => expect(completionNow()).toBe(50));
    await chooseMainTag('Photos');
    expect(completionNow()).toBe(50); // a main tag alone is not a tag yet
    await pick('Category', 'Travel');
    await waitFor(() => expect(completionNow()).toBe(70));
    chooseFile('Photo', pngFile());
    await waitFor(() => expect(completionNow()).toBe(100));
    expect(screen.getByText('Form 100% complete')).toBeTruthy();
  });
});

describe('rules and messages', () => {
  it('when submitted empty, then each field shows its exact message and nothing is saved', async () => {
    await openUpload();
    await dialogSubmit();
    for (const message of ['Title should not be empty', 'Description should not be empty', 'Tags should not be empty', 'Should input photo']) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    // No audio field (and no audio message) until the tag is Music.
    expect(screen.queryByText('Should input audio')).toBeNull();
    expect(saveContent).not.toHaveBeenCalled();
  });

  it('when the tag is chosen but not the sub-tag, then the tag message shows once', async () => {
    await openUpload();
    await chooseMainTag('Art');
    await dialogSubmit();
    expect(await screen.findAllByText('Tags should not be empty')).toHaveLength(1);
  });

  it('when the tag is Music and everything but the audio is given, then "Should input audio" and nothing is saved', async () => {
    const { store } = await openUpload();
    type('Title', 'Blue in Green');
    type('Description', 'A take from the kitchen');
    await chooseMainTag('Music');
    await pick('Genre', 'Jazz');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(100));
    expect(screen.getByLabelText('Audio', { selector: 'input[type="file"]' })).toBeTruthy();
    await dialogSubmit();
    expect(await screen.findByText('Should input audio')).toBeTruthy();
    expect(saveContent).not.toHaveBeenCalled();
  });

  it('when the member is userType 50, then Music is the only tag offered, chosen already, with the reason', async () => {
    await openUpload(makeUser({ userType: 50 }));
    const radios = screen.getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent?.trim())).toEqual(['Music']);
    expect((radios[0] as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('radio', { name: /Art/ })).toBeNull();
    expect(screen.queryByRole('radio', { name: /Photos/ })).toBeNull();
    expect(screen.getByText('Your account may upload Music only.')).toBeTruthy();
    // Music: the audio field is there from the start.
    expect(screen.getByLabelText('Audio', { selector: 'input[type="file"]' })).toBeTruthy();
  });

  it('when a member of another type opens it, then Music, Art and Photos are offered', async () => {
    await openUpload(makeUser({ userType: 0 }));
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent?.trim())).toEqual(['Music', 'Art', 'Photos']);
    // No NFT toggle; only Classic shows.
    const dialog = await findDialog('Upload content');
    expect(dialog.queryByText(/NFT/)).toBeNull();
    expect(dialog.queryByRole('switch')).toBeNull();
    expect(dialog.getByText('Classic')).toBeTruthy();
  });
});

describe('sending a file (idle → uploading → done | failed)', () => {
  it('when a cover is chosen, then status goes uploading (inputs disabled, byte progress) → done (inputs back, preview)', async () => {
    const held = deferred<UploadContentPhotoResult>();
    jest.mocked(uploadContentPhoto).mockReturnValue(held.promise);
    const { store } = await openUpload();
    expect(store.getState().upload.status).toBe('idle');
    const file = pngFile('lisbon.png');
    chooseFile('Cover photo', file);

    await waitFor(() => expect(store.getState().upload.status).toBe('uploading'));
    const [args, options] = jest.mocked(uploadContentPhoto).mock.calls[0]!;
    expect(args.body).toBeInstanceOf(FormData);
    expect([...args.body.keys()]).toEqual(['file']);
    expect((args.body.get('file') as File).name).toBe('lisbon.png');
    expect(options?.onUploadProgress).toEqual(expect.any(Function));
    // Every input is disabled while sending.
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).disabled).toBe(true));
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: /Music/ }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Cover photo', { selector: 'input[type="file"]' }) as HTMLInputElement).disabled).toBe(true);
    expect((await findDialog('Upload content')).getByRole('button', { name: 'Upload' }).hasAttribute('disabled')).toBe(true);

    // The real byte progress.
    act(() => lastOptions(jest.mocked(uploadContentPhoto)).onUploadProgress!(0.42));
    await waitFor(() => expect(progressValue('Cover photo upload')).toBe(42));
    expect(store.getState().upload.photo.progress).toBeCloseTo(0.42);

    await act(async () => held.resolve(imageAnswer('images/2026/11/lisbon.jpg', 'lisbon.png')));
    await waitFor(() => expect(store.getState().upload.status).toBe('done'));
    expect(progressValue('Cover photo upload')).toBe(100);
    expect((screen.getByLabelText('Title') as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByRole('img', { name: 'Cover photo: lisbon.png' }).getAttribute('src')).toBe('/files/images/2026/11/lisbon.jpg.m.webp');
    expect(store.getState().upload.photo.file?.path).toBe('images/2026/11/lisbon.jpg');
  });

  it('when a song is sent, then its name, size and duration from the answer show', async () => {
    jest.mocked(uploadContentAudio).mockResolvedValue(audioAnswer('audio/2026/11/blue.mp3', 'Blue in Green.mp3', 337.2));
    await openUpload();
    await chooseMainTag('Music');
    chooseFile('Audio', mp3File('Blue in Green.mp3'));
    expect(await screen.findByText('Blue in Green.mp3')).toBeTruthy();
    expect(await screen.findByText('3.4 MB · 5:37')).toBeTruthy();
    expect(progressValue('Audio upload')).toBe(100);
  });

  it('when the server answers 413, then its message shows (field and toast) and the status is failed', async () => {
    jest.mocked(uploadContentAudio).mockRejectedValue(new ApiError('File size should be less than 100 MB.', 413, 'payload_too_large'));
    const { store } = await openUpload();
    await chooseMainTag('Music');
    chooseFile('Audio', mp3File('long-set.mp3'));
    await waitFor(() => expect(store.getState().upload.status).toBe('failed'));
    expect(store.getState().upload.audio.error).toBe('File size should be less than 100 MB.');
    expect(store.getState().upload.audio.file).toBeNull();
    expect((await screen.findAllByText('File size should be less than 100 MB.')).length).toBeGreaterThanOrEqual(1);
    await waitFor(() => expect(toastTexts()).toContain('File size should be less than 100 MB.'));
    // Inputs are usable again.
    expect((screen.getByLabelText('Title') as HTMLInputElement).disabled).toBe(false);
  });

  it('when a file is too big or of the wrong type, then the client says so before sending anything', async () => {
    const { store } = await openUpload();
    await chooseMainTag('Music');
    chooseFile('Audio', makeFile('huge.wav', 'audio/wav', 104_857_601));
    expect((await screen.findAllByText('File size should be less than 100 MB.')).length).toBeGreaterThanOrEqual(1);
    expect(store.getState().upload.status).toBe('failed');
    chooseFile('Cover photo', makeFile('drawing.gif', 'image/gif'));
    expect((await screen.findAllByText('Only PNG and JPEG images are accepted.')).length).toBeGreaterThanOrEqual(1);
    chooseFile('Cover photo', makeFile('poster.jpg', 'image/jpeg', 21 * 1024 * 1024));
    expect((await screen.findAllByText('Image size should be less than 20 MB.')).length).toBeGreaterThanOrEqual(1);
    chooseFile('Audio', makeFile('notes.txt', 'text/plain'));
    expect((await screen.findAllByText('Only audio files (MP3, WAV, OGG, FLAC, M4A or AAC) are accepted.')).length).toBeGreaterThanOrEqual(1);
    expect(uploadContentAudio).not.toHaveBeenCalled();
    expect(uploadContentPhoto).not.toHaveBeenCalled();
  });

  it('when Cancel is pressed during a transfer, then the request is aborted and the field is empty again', async () => {
    jest.mocked(uploadContentPhoto).mockReturnValue(deferred<UploadContentPhotoResult>().promise);
    const { store } = await openUpload();
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.status).toBe('uploading'));
    const signal = lastOptions(jest.mocked(uploadContentPhoto)).signal!;
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(signal.aborted).toBe(true));
    expect(store.getState().upload.status).toBe('idle');
    expect(store.getState().upload.photo.file).toBeNull();
    expect((screen.getByLabelText('Title') as HTMLInputElement).disabled).toBe(false);
  });
});

describe('saving and reopening', () => {
  it('when a complete Photos/Travel piece is saved, then content/save gets the paths, a toast says Success and the payment modal (type dollar) offers to monetize it', async () => {
    jest.mocked(saveContent).mockResolvedValue({ content: savedContent(), message: 'Success' });
    await sentEventNames();
    const { store } = await openUpload();
    type('Title', '  Lisbon at dawn ');
    type('Description', 'Tram 28');
    await chooseMainTag('Photos');
    await pick('Category', 'Travel');
    chooseFile('Photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await dialogSubmit();
    await waitFor(() => expect(saveContent).toHaveBeenCalledTimes(1));
    expect(saveContent).toHaveBeenCalledWith(
      {
        body: {
          title: 'Lisbon at dawn',
          description: 'Tram 28',
          tags: [{ name: 'Photos' }],
          subTag: 'Travel',
          photoPath: 'images/2026/11/cover.jpg',
          audioPath: undefined,
        },
      },
      QUIET_FLOW_CALL,
    );
    // After a classic upload the payment modal of type dollar opens for the saved piece.
    await waitFor(() => expect(store.getState().ui.modal).toBe('payment'));
    expect(store.getState().ui.modalProps).toEqual({ paymentType: 'dollar', contentId: savedContent().id });
    expect(store.getState().upload.status).toBe('done');
    await waitFor(() => expect(toastTexts()).toContain('Success'));
    expect(await sentEventNames()).toEqual([{ name: 'post_content', contentId: savedContent().id }]);
  });

  it('when a song with its cover is saved under Music/Jazz, then both paths go to content/save', async () => {
    jest.mocked(saveContent).mockResolvedValue({ content: savedContent({ isAudio: true, subTag: 'Jazz', tags: [{ name: 'Music' }] }), message: 'Success' });
    const { store } = await openUpload();
    type('Title', 'Blue in Green');
    type('Description', 'Kitchen take');
    await chooseMainTag('Music');
    await pick('Genre', 'Jazz');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    await dialogSubmit();
    await waitFor(() => expect(saveContent).toHaveBeenCalled());
    expect(jest.mocked(saveContent).mock.calls[0]![0].body).toMatchObject({
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      photoPath: 'images/2026/11/cover.jpg',
      audioPath: 'audio/2026/11/song.mp3',
    });
  });

  it('when the save fails, then the server message shows, the status is failed and the form keeps its values', async () => {
    jest
      .mocked(saveContent)
      .mockRejectedValue(new ApiError('Title should not be empty', 400, 'validation', [{ path: 'body.title', message: 'Title should not be empty' }]));
    const { store } = await openUpload();
    type('Title', 'Something');
    type('Description', 'Else');
    await chooseMainTag('Art');
    await pick('Category', 'Pixel Art');
    chooseFile('Artwork', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await dialogSubmit();
    await waitFor(() => expect(store.getState().upload.status).toBe('failed'));
    expect(store.getState().ui.modal).toBe('upload');
    expect((await screen.findAllByText('Title should not be empty')).length).toBeGreaterThanOrEqual(1);
    expect((screen.getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Else');
  });

  it('when the modal is closed and opened again, then the form starts empty', async () => {
    const { store } = await openUpload();
    type('Title', 'Half done');
    await waitFor(() => expect(completionNow()).toBe(30));
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(60));
    act(() => void store.dispatch(modalClosed()));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload content' })).toBeNull());
    act(() => void store.dispatch(modalOpened('upload')));
    await findDialog('Upload content');
    await waitFor(() => expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe(''));
    expect(completionNow()).toBe(0);
    expect(store.getState().upload.photo.file).toBeNull();
    expect(screen.queryByRole('img', { name: /Cover photo:/ })).toBeNull();
  });
});

describe('a visitor', () => {
  it('when a visitor presses Upload, then login opens, and after logging in the upload modal opens', async () => {
    setViewport(1280, 800);
    mockPublicCalls();
    jest.mocked(signin).mockResolvedValue(authAnswer('new-token'));
    const { store } = renderApp('/');
    await homeHeading();
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Upload' }));
    const login = await findDialog('Log in');
    expect(store.getState().ui.modalProps.origin).toBe('upload');
    fireEvent.change(login.getByLabelText('Email'), { target: { value: 'jane@example.com' } });
    fireEvent.change(login.getByLabelText('Password'), { target: { value: 'Secret!23' } });
    fireEvent.click(login.getByRole('button', { name: 'Log in' }));
    await findDialog('Upload content');
    expect(store.getState().ui.modal).toBe('upload');
    expect(window.location.pathname).toBe('/'); // not sent to /explore
  });
});
