/**
 * The Top 50 and artist-page upload modals, sharing the content form: Music only, Music 2 at $0.96 a play,
 * their completion weights (20 each), the Top 50 email rule and its two steps (a failed save goes back to
 * step 1), a visitor's Top 50 entry (an upload pass asked once, sent with each file and the save), the artist
 * page's single step and the reload 500 ms after saving (a failure reloads too).
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createTop50UploadPass, saveArtistContent, saveTop50Content, uploadContentAudio, uploadContentPhoto } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { modalOpened } from '../../client/src/lib/ui';
import { pageReload } from '../../client/src/features/upload';
import { makeUser, setViewport } from './auth-fixtures';
import { mockPublicCalls, renderApp } from './auth-app';
import {
  audioAnswer,
  chooseFile,
  deferred,
  findDialog,
  imageAnswer,
  mp3File,
  pick,
  pngFile,
  progressValue,
  renderSignedIn,
  stubObjectUrls,
  toastTexts,
  type,
} from './upload-fixtures';

jest.mock('../../client/src/api/generated/operations');

const content = { id: '64d000000000000000000009', title: 'So What' } as never;
const ARTIST_ID = '64b0000000000000000000aa';
const completionNow = () => progressValue('Form completion');

/** Lets promise callbacks run (the saga's steps between two timers), with the fake clock standing still. */
async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Moves the fake clock on by `ms`, then lets what the timers started run. */
async function advance(ms: number) {
  await act(async () => {
    jest.advanceTimersByTime(ms);
    await settle();
  });
}

beforeEach(() => {
  jest.resetAllMocks();
  stubObjectUrls();
  jest.mocked(uploadContentPhoto).mockResolvedValue(imageAnswer());
  jest.mocked(uploadContentAudio).mockResolvedValue(audioAnswer());
});

async function open(request: Parameters<typeof modalOpened>[0], dialogName: string) {
  const app = await renderSignedIn(makeUser());
  act(() => void app.store.dispatch(modalOpened(request)));
  const dialog = await findDialog(dialogName);
  return { ...app, dialog };
}

describe('upload music (Top 50)', () => {
  it('when it opens, then only Music is offered, Music 2 pays $0.96 per play, and the weights are 20 each', async () => {
    const { store, dialog } = await open({ name: 'upload-top50', userId: ARTIST_ID }, 'Upload music (Top 50)');
    expect(dialog.getByRole('heading', { name: 'Upload music to the Top 50' })).toBeTruthy();
    expect(dialog.getByText('Step 1 of 2 · Details')).toBeTruthy();
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent?.trim())).toEqual(['Music']);
    expect(completionNow()).toBe(0);
    type('Title', 'So What');
    await waitFor(() => expect(completionNow()).toBe(20));
    type('Email', 'not-an-email');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(await screen.findByText('Email must be valid')).toBeTruthy();
    expect(completionNow()).toBe(20);
    type('Email', 'miles@example.com');
    await waitFor(() => expect(completionNow()).toBe(40));
    type('Description', 'Modal, 1959');
    await waitFor(() => expect(completionNow()).toBe(60));
    await pick('Genre', 'Jazz');
    await waitFor(() => expect(completionNow()).toBe(80));
    // The sub-tag list shows what a play earns; Music 2 as 0.96 in this modal.
    expect(document.querySelector('.ant-select-item-option[title="Music 2"]')?.textContent).toContain('$0.96 / play');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(completionNow()).toBe(100));
    // The song is required but carries no weight here.
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    expect(completionNow()).toBe(100);
  });

  it('when Next is pressed, then the email is confirmed on step 2; a failed save goes back to step 1, a good one closes', async () => {
    jest
      .mocked(saveTop50Content)
      .mockRejectedValueOnce(new ApiError('That upload was not found. Please upload the file again.', 400, 'bad_request'))
      .mockResolvedValueOnce({ content, message: 'Success' });
    const { store, dialog } = await open({ name: 'upload-top50', userId: ARTIST_ID, artistName: 'Miles' }, 'Upload music (Top 50)');
    expect(dialog.getByRole('heading', { name: "Upload music to Miles's Top 50" })).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    for (const message of [
      'Title should not be empty',
      'Email must be valid',
      'Description should not be empty',
      'Tags should not be empty',
      'Should input photo',
      'Should input audio',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(store.getState().upload.step).toBe(1);

    type('Title', 'So What');
    type('Email', ' miles@example.com ');
    type('Description', 'Modal, 1959');
    await pick('Genre', 'Jazz');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));

    expect(await dialog.findByRole('heading', { name: 'Is this your email?' })).toBeTruthy();
    expect(dialog.getByText('Step 2 of 2 · Confirm your email')).toBeTruthy();
    expect(dialog.getByText('miles@example.com', { exact: false })).toBeTruthy();
    expect(saveTop50Content).not.toHaveBeenCalled();

    fireEvent.click(dialog.getByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(store.getState().upload.status).toBe('failed'));
    expect(store.getState().upload.step).toBe(1);
    expect(await dialog.findByText('Step 1 of 2 · Details')).toBeTruthy();
    await waitFor(() => expect(toastTexts()).toContain('That upload was not found. Please upload the file again.'));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('So What');

    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(jest.mocked(saveTop50Content).mock.calls[1]![0].body).toEqual({
      artistId: ARTIST_ID,
      title: 'So What',
      description: 'Modal, 1959',
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      photoPath: 'images/2026/11/cover.jpg',
      audioPath: 'audio/2026/11/song.mp3',
      email: 'miles@example.com',
    });
  });

  it('when a visitor enters a song, then one upload pass is asked for the artist, sent with both files and the save, and the email is confirmed', async () => {
    jest.mocked(createTop50UploadPass).mockResolvedValue({ pass: 'visitor-pass', expiresAt: '2026-11-27T17:00:00.000Z' });
    const message = 'Check your email: your song joins the chart once you register from the link we sent.';
    jest.mocked(saveTop50Content).mockResolvedValue({ content, message });
    setViewport(1280, 800);
    mockPublicCalls();
    const { store } = renderApp('/');
    act(() => void store.dispatch(modalOpened({ name: 'upload-top50', userId: ARTIST_ID, artistName: 'Miles' })));
    const dialog = await findDialog('Upload music (Top 50)');
    type('Title', 'So What');
    type('Email', 'miles@example.com');
    type('Description', 'Modal, 1959');
    await pick('Genre', 'Music 2');
    expect(document.querySelector('.ant-select-item-option[title="Music 2"]')?.textContent).toContain('$0.96 / play');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    expect(createTop50UploadPass).toHaveBeenCalledTimes(1);
    expect(jest.mocked(createTop50UploadPass).mock.calls[0]![0]).toEqual({ body: { artistId: ARTIST_ID } });
    expect(jest.mocked(uploadContentPhoto).mock.calls[0]![1]?.headers).toEqual({ 'X-Upload-Pass': 'visitor-pass' });
    expect(jest.mocked(uploadContentAudio).mock.calls[0]![1]?.headers).toEqual({ 'X-Upload-Pass': 'visitor-pass' });

    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    expect(await dialog.findByRole('heading', { name: 'Is this your email?' })).toBeTruthy();
    expect(dialog.getByText(/We email a link to this address/)).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    const [args, options] = jest.mocked(saveTop50Content).mock.calls[0]!;
    expect(args.body).toMatchObject({ artistId: ARTIST_ID, email: 'miles@example.com', subTag: 'Music 2' });
    expect(options?.headers).toEqual({ 'X-Upload-Pass': 'visitor-pass' });
    await waitFor(() => expect(toastTexts()).toContain(message));
    expect(createTop50UploadPass).toHaveBeenCalledTimes(1);
  });
});

describe('upload to an artist page (upload-{name})', () => {
  async function fillArtist(store: Awaited<ReturnType<typeof open>>['store']) {
    type('Title', 'Freddie Freeloader');
    await waitFor(() => expect(completionNow()).toBe(20));
    await pick('Genre', 'Jazz');
    await waitFor(() => expect(completionNow()).toBe(40));
    type('Description', 'Take one');
    await waitFor(() => expect(completionNow()).toBe(60));
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(80));
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(100));
  }

  it('when saved, then content/save-artist gets the artist id, Music 2 shows $0.96 a play, and the page reloads 500 ms later', async () => {
    const reload = jest.spyOn(pageReload, 'run').mockImplementation(() => undefined);
    const answer = deferred<{ content: never; message: string }>();
    jest.mocked(saveArtistContent).mockReturnValue(answer.promise);
    const { store, dialog } = await open({ name: 'upload-artist', userId: ARTIST_ID, artistName: 'Miles' }, 'Upload to the artist page');
    expect(dialog.getByRole('heading', { name: "Upload to Miles's artist page" })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    await fillArtist(store);
    await pick('Genre', 'Music 2');
    expect(document.querySelector('.ant-select-item-option[title="Music 2"]')?.textContent).toContain('$0.96 / play');
    await pick('Genre', 'Jazz');
    fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(saveArtistContent).toHaveBeenCalledTimes(1));
    // The clock stands still from the moment the save answers: the page waits 500 ms of it to reload.
    jest.useFakeTimers();
    try {
      await act(async () => {
        answer.resolve({ content, message: 'Success' });
        await settle();
      });
      await advance(499);
      expect(reload).not.toHaveBeenCalled();
      await advance(1);
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
    expect(jest.mocked(saveArtistContent).mock.calls[0]![0].body).toMatchObject({ userId: ARTIST_ID, tags: [{ name: 'Music' }], subTag: 'Jazz' });
    expect(store.getState().ui.modal).toBeNull();
    reload.mockRestore();
  });

  it('when the save fails, then the message shows and the page reloads 500 ms later too', async () => {
    const reload = jest.spyOn(pageReload, 'run').mockImplementation(() => undefined);
    const answer = deferred<never>();
    jest.mocked(saveArtistContent).mockReturnValue(answer.promise);
    const { store, dialog } = await open({ name: 'upload-artist', userId: '64b0000000000000000000bb' }, 'Upload to the artist page');
    await fillArtist(store);
    fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(saveArtistContent).toHaveBeenCalledTimes(1));
    jest.useFakeTimers();
    try {
      await act(async () => {
        answer.reject(new ApiError("You can't change another member's profile.", 403, 'forbidden'));
        await settle();
      });
      expect(store.getState().upload.status).toBe('failed');
      await advance(499);
      expect(reload).not.toHaveBeenCalled();
      await advance(1);
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
    await waitFor(() => expect(toastTexts()).toContain("You can't change another member's profile."));
    reload.mockRestore();
  });
});
