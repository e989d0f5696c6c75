/**
 * The profile photo and header image dialogs: the cropper's geometry (the header keeps
 * 1119:305 through every move and resize, the photo stays square), 'Please select photo', 'Please upload
 * image first.', 'Please wait to load image.', the crops made on a canvas and uploaded, then applied, and
 * the account updated (the side menu's avatar). jsdom has no canvas or image decoding: both are stubbed.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  updateUserHeaderImage,
  updateUserPhoto,
  uploadUserHeaderImage,
  uploadUserPhoto,
  type UploadUserHeaderImageResult,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { fitCrop, HEADER_RATIO, moveCrop, outputSize, resizeCrop, scaleCrop, type Corner, type CropRect } from '../../client/src/features/upload/testing';
import { makeUser, storedAccount } from './auth-fixtures';
import { chooseFile, deferred, findDialog, imageAnswer, makeFile, pngFile, renderSignedIn, stubObjectUrls, toastTexts } from './upload-fixtures';
import { QUIET_FLOW_CALL } from './call-options';

jest.mock('../../client/src/api/generated/operations');

const ratioOf = (rect: CropRect) => rect.width / rect.height;
const inside = (rect: CropRect, image: { width: number; height: number }) =>
  rect.x >= -1e-9 && rect.y >= -1e-9 && rect.x + rect.width <= image.width + 1e-9 && rect.y + rect.height <= image.height + 1e-9;

/** Canvas stubs: what was drawn, at what size, encoded as what. */
const drawn: { width: number; height: number; type: string; source: unknown[] }[] = [];
beforeAll(() => {
  const context = { fillStyle: '', imageSmoothingQuality: 'low', fillRect: jest.fn(), drawImage: jest.fn() };
  Object.defineProperty(HTMLCanvasElement.prototype, 'getContext', { configurable: true, value: () => context });
  Object.defineProperty(HTMLCanvasElement.prototype, 'toBlob', {
    configurable: true,
    value(this: HTMLCanvasElement, callback: (blob: Blob) => void, type: string) {
      drawn.push({ width: this.width, height: this.height, type, source: context.drawImage.mock.calls.at(-1) ?? [] });
      callback(new Blob(['encoded'], { type }));
    },
  });
});

beforeEach(() => {
  jest.resetAllMocks();
  drawn.length = 0;
  stubObjectUrls();
});

/** The cropper's picture "decodes" at the given size. */
function decode(width: number, height: number) {
  const image = document.querySelector<HTMLImageElement>('.kn-cropper__image')!;
  Object.defineProperty(image, 'naturalWidth', { configurable: true, value: width });
  Object.defineProperty(image, 'naturalHeight', { configurable: true, value: height });
  act(() => {
    fireEvent.load(image);
  });
}

function cropOf(name: string): CropRect {
  const [x, y, width, height] = (screen.getByRole('group', { name }).getAttribute('data-crop') ?? '').split(',').map(Number);
  return { x: x!, y: y!, width: width!, height: height! };
}

describe('crop geometry', () => {
  const image = { width: 2400, height: 900 };

  it('when a header crop is fitted, moved, resized from each corner or scaled, then it stays 1119:305 and inside the picture', () => {
    const start = fitCrop(image, HEADER_RATIO);
    expect(start.width).toBe(2400);
    expect(ratioOf(start)).toBeCloseTo(1119 / 305, 10);
    expect(start.y).toBeCloseTo((900 - 2400 / HEADER_RATIO) / 2, 6);
    for (const corner of ['nw', 'ne', 'sw', 'se'] as Corner[]) {
      for (const [dx, dy] of [
        [-300, -40],
        [250, 90],
        [-5000, 3000],
        [40, -900],
      ] as const) {
        const next = resizeCrop(start, corner, dx, dy, HEADER_RATIO, image);
        expect(ratioOf(next)).toBeCloseTo(1119 / 305, 6);
        expect(inside(next, image)).toBe(true);
        expect(next.width).toBeGreaterThanOrEqual(240 - 1e-6); // never below a tenth of the largest crop
      }
    }
    const smaller = resizeCrop(start, 'se', -1200, 0, HEADER_RATIO, image);
    expect(smaller).toMatchObject({ x: 0, y: start.y, width: 1200 });
    const moved = moveCrop(smaller, 5000, 5000, image);
    expect(moved.x + moved.width).toBeCloseTo(2400, 6);
    expect(moved.y + moved.height).toBeCloseTo(900, 6);
    expect(ratioOf(moved)).toBeCloseTo(1119 / 305, 6);
    expect(ratioOf(scaleCrop(moved, 1.3, HEADER_RATIO, image))).toBeCloseTo(1119 / 305, 6);
    expect(inside(scaleCrop(moved, 1.3, HEADER_RATIO, image), image)).toBe(true);
    expect(scaleCrop(moved, 50, HEADER_RATIO, image).width).toBeCloseTo(2400, 6);
  });

  it('when the crop becomes a picture, then the header is exactly 1119×305 (2238×610 with the pixels for it) and the photo square', () => {
    expect(outputSize({ x: 0, y: 0, width: 1200, height: 1200 / HEADER_RATIO }, HEADER_RATIO)).toEqual({ width: 1119, height: 305 });
    expect(outputSize({ x: 0, y: 0, width: 600, height: 600 / HEADER_RATIO }, HEADER_RATIO)).toEqual({ width: 1119, height: 305 });
    expect(outputSize({ x: 0, y: 0, width: 2400, height: 2400 / HEADER_RATIO }, HEADER_RATIO)).toEqual({ width: 2238, height: 610 });
    expect(outputSize({ x: 0, y: 0, width: 800, height: 800 }, 1, 512)).toEqual({ width: 512, height: 512 });
    expect(outputSize({ x: 0, y: 0, width: 300, height: 300 }, 1, 512)).toEqual({ width: 300, height: 300 });
    const square = fitCrop({ width: 800, height: 600 }, 1);
    expect(square).toEqual({ x: 100, y: 0, width: 600, height: 600 });
  });
});

describe('profile photo', () => {
  it('when Save is pressed with no photo, then "Please select photo"; a chosen photo is cropped square, uploaded and becomes the avatar', async () => {
    const user = makeUser();
    jest.mocked(uploadUserPhoto).mockResolvedValue(imageAnswer('images/2026/11/me.png', 'photo.png'));
    jest.mocked(updateUserPhoto).mockResolvedValue({ message: 'Success', user: { ...user, image: '/files/images/2026/11/me.png.m.webp' } });
    const { store } = await renderSignedIn(user);
    const side = screen.getByRole('navigation', { name: 'Side menu' });
    // The initials are drawn (CSS content), so that they are no text of the avatar button's name.
    expect(side.querySelector('[data-glyph="JD"]')).toBeTruthy();
    fireEvent.click(within(side).getByRole('button', { name: 'Change profile photo' }));
    const dialog = await findDialog('Profile photo');

    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await dialog.findByText('Please select photo')).toBeTruthy();
    expect(uploadUserPhoto).not.toHaveBeenCalled();

    chooseFile('Choose a photo', makeFile('notes.pdf', 'application/pdf'));
    expect(await dialog.findByText('Only PNG and JPEG images are accepted.')).toBeTruthy();

    chooseFile('Choose a photo', pngFile('me.png'));
    decode(800, 600);
    expect(cropOf('Photo crop area')).toEqual({ x: 100, y: 0, width: 600, height: 600 });
    // The keyboard moves and resizes it; it stays square.
    const area = screen.getByRole('group', { name: 'Photo crop area' });
    fireEvent.keyDown(area, { key: '-' });
    fireEvent.keyDown(area, { key: 'ArrowLeft', shiftKey: true });
    const crop = cropOf('Photo crop area');
    expect(Math.abs(crop.width - crop.height)).toBeLessThanOrEqual(1);
    expect(crop.width).toBeLessThan(600);

    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updateUserPhoto).toHaveBeenCalled());
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toMatchObject({ width: 512, height: 512, type: 'image/png' });
    const body = jest.mocked(uploadUserPhoto).mock.calls[0]![0].body;
    expect((body.get('file') as File).name).toBe('photo.png');
    expect(updateUserPhoto).toHaveBeenCalledWith({ body: { userId: user.id, photoPath: 'images/2026/11/me.png' } }, QUIET_FLOW_CALL);
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(within(side).getByRole('button', { name: 'Change profile photo' }).querySelector('img')?.getAttribute('src')).toBe(
      '/files/images/2026/11/me.png.m.webp',
    );
    expect(storedAccount()?.user.image).toBe('/files/images/2026/11/me.png.m.webp');
    await waitFor(() => expect(toastTexts()).toContain('Success'));
  });
});

describe('header image', () => {
  it('when saved too early, the editor says why; once loaded, the crop keeps 1119:305 and both uploads are applied', async () => {
    const user = makeUser();
    const original = deferred<UploadUserHeaderImageResult>();
    jest.mocked(uploadUserHeaderImage).mockReturnValueOnce(original.promise).mockResolvedValueOnce(imageAnswer('images/2026/11/header-crop.jpg', 'header.jpg'));
    jest.mocked(updateUserHeaderImage).mockResolvedValue({ message: 'Success', user: { ...user, headerImage: '/files/images/2026/11/header-crop.jpg' } });
    const { store } = await renderSignedIn(user);
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Side menu' })).getByRole('button', { name: 'Header image' }));
    const dialog = await findDialog('Header image');

    // No picture: 'Please upload image first.'
    fireEvent.click(dialog.getByRole('button', { name: 'Save and apply' }));
    expect(await dialog.findByText('Please upload image first.')).toBeTruthy();

    // Chosen, the original still uploading and the picture not decoded: 'Please wait to load image.'
    chooseFile('Upload a header image', makeFile('wide.jpg', 'image/jpeg'));
    await waitFor(() => expect(store.getState().upload.header.sending).toBe('original'));
    expect(dialog.getByText('Loading the image…')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Save and apply' }));
    expect(await dialog.findByText('Please wait to load image.')).toBeTruthy();
    decode(2400, 900);
    fireEvent.click(dialog.getByRole('button', { name: 'Save and apply' }));
    expect(await dialog.findByText('Please wait to load image.')).toBeTruthy(); // the original is still on its way
    await act(async () => original.resolve(imageAnswer('images/2026/11/header-original.jpg', 'wide.jpg')));
    await waitFor(() => expect(store.getState().upload.header.original?.path).toBe('images/2026/11/header-original.jpg'));

    // The crop: the largest 1119:305 band, then smaller and moved with the keyboard; the ratio holds.
    const first = cropOf('Header crop area');
    expect(first.width).toBe(2400);
    expect(first.width / first.height).toBeCloseTo(HEADER_RATIO, 2);
    const area = screen.getByRole('group', { name: 'Header crop area' });
    for (const key of ['-', '-', '-', 'ArrowRight', 'ArrowDown', '+']) fireEvent.keyDown(area, { key });
    const crop = cropOf('Header crop area');
    expect(crop.width).toBeLessThan(2400);
    expect(crop.x).toBeGreaterThan(0);
    expect(crop.width / crop.height).toBeCloseTo(HEADER_RATIO, 1);

    fireEvent.click(dialog.getByRole('button', { name: 'Save and apply' }));
    await waitFor(() => expect(updateUserHeaderImage).toHaveBeenCalled());
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toMatchObject({ width: 1119, height: 305, type: 'image/jpeg' });
    expect(drawn[0]!.width / drawn[0]!.height).toBe(1119 / 305);
    const cropFile = jest.mocked(uploadUserHeaderImage).mock.calls[1]![0].body.get('file') as File;
    expect(cropFile.name).toBe('header.jpg');
    expect(updateUserHeaderImage).toHaveBeenCalledWith(
      { body: { userId: user.id, headerImage: 'images/2026/11/header-original.jpg', headerImageEdited: 'images/2026/11/header-crop.jpg' } },
      QUIET_FLOW_CALL,
    );
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(store.getState().auth.user?.headerImage).toBe('/files/images/2026/11/header-crop.jpg');
  });

  it('when the original is refused by the server, then its message shows and saving asks for an image first', async () => {
    jest.mocked(uploadUserHeaderImage).mockRejectedValue(new ApiError('Only PNG and JPEG images are accepted.', 415, 'unsupported_media_type'));
    await renderSignedIn(makeUser());
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Side menu' })).getByRole('button', { name: 'Header image' }));
    const dialog = await findDialog('Header image');
    chooseFile('Upload a header image', makeFile('holiday.png', 'image/png'));
    expect(await dialog.findByText('Only PNG and JPEG images are accepted.')).toBeTruthy();
    // The refused picture leaves the editor; the drop zone is back.
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Header crop area' })).toBeNull());
    expect(document.querySelector('.kn-cropper__image')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Save and apply' }));
    expect(await dialog.findByText('Please upload image first.')).toBeTruthy();
    expect(updateUserHeaderImage).not.toHaveBeenCalled();
  });
});
