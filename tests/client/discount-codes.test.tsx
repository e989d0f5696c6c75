/**
 * The admins' discount codes page, `/creat-discount-code`: a member or a visitor is sent home (and the codes are
 * never asked for); an admin creates a code (upper-cased, what it covers, how many uses, the last day) and sees
 * every code with its use; the server's refusal of a code that exists shows under the code. The generated
 * operations are mocked; the store, router, route guard and antd form are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { components } from '../../generated/openapi';
import { createDiscountCode, listDiscountCodes } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { makeAdmin, makeUser } from './auth-fixtures';
import { QUIET_CALL } from './call-options';
import { path, renderAt } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type Summary = components['schemas']['DiscountCodeSummary'];

const PAGE = '/creat-discount-code';
const admin = makeAdmin;
const homeHeading = () => screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });

function summary(overrides: Partial<Summary> = {}): Summary {
  return {
    code: 'WELCOME',
    covers: 'both',
    maxUses: 10,
    uses: 0,
    usesLeft: 10,
    expiresAt: null,
    expired: false,
    createdAt: '2026-05-01T12:00:00.000Z',
    recentUses: [],
    ...overrides,
  };
}

const USED = summary({
  code: 'WELCOME',
  uses: 7,
  usesLeft: 3,
  recentUses: [
    {
      userId: '64b0000000000000000000b2',
      username: 'bea_moon',
      contentId: '64c000000000000000000009',
      contentTitle: 'Blue Hour',
      at: '2026-05-14T12:00:00.000Z',
    },
  ],
});

beforeEach(() => {
  jest
    .mocked(listDiscountCodes)
    .mockReset()
    .mockResolvedValue({ codes: [USED] });
  jest.mocked(createDiscountCode).mockReset();
});

async function openAsAdmin() {
  await renderAsMember(PAGE, admin());
  await screen.findByRole('heading', { level: 1, name: 'Discount codes' });
}

const form = () => within(screen.getByRole('form', { name: 'New code' }));
const codeItem = async (code: string) => within(await screen.findByRole('listitem', { name: code }));

describe('who reaches /creat-discount-code', () => {
  it('when a member opens it, then they are sent home and the codes are never asked for', async () => {
    await renderAsMember(PAGE, makeUser());
    await homeHeading();
    expect(path()).toBe('/');
    expect(listDiscountCodes).not.toHaveBeenCalled();
  });

  it('when a visitor opens it, then they are sent home', async () => {
    renderAt(PAGE);
    await homeHeading();
    expect(path()).toBe('/');
    expect(listDiscountCodes).not.toHaveBeenCalled();
  });
});

describe('an admin on /creat-discount-code', () => {
  it('when the page opens, then every code shows with what it covers, its uses, the uses left, its expiry and who used it', async () => {
    jest.mocked(listDiscountCodes).mockResolvedValue({
      codes: [USED, summary({ code: 'OLDPREM', covers: 'premium', maxUses: 2, usesLeft: 2, expiresAt: '2026-03-31T22:59:59.999Z', expired: true })],
    });
    await openAsAdmin();
    const welcome = await codeItem('WELCOME');
    expect(welcome.getByText('Active')).toBeTruthy();
    expect(welcome.getByText('Both')).toBeTruthy();
    expect(welcome.getByText('7 of 10 · 3 left')).toBeTruthy();
    expect(welcome.getByText('No expiry')).toBeTruthy();
    expect(welcome.getByText('Latest uses')).toBeTruthy();
    expect(welcome.getByText('bea moon')).toBeTruthy();
    expect(welcome.getByText('Blue Hour')).toBeTruthy();
    expect(welcome.getByText(/2026/, { selector: 'time' }).getAttribute('datetime')).toBe('2026-05-14T12:00:00.000Z');

    const old = await codeItem('OLDPREM');
    expect(old.getByText('Expired', { selector: '.kn-codes__state' })).toBeTruthy();
    expect(old.getByText('Premium ($12.40)')).toBeTruthy();
    expect(old.getByText(/^Expired .*2026$/, { selector: 'dd' })).toBeTruthy();
    expect(old.getByText('Not used yet.')).toBeTruthy();
  });

  it('when they create a code, then it is sent upper-cased with what it covers, its uses and the end of its last day, and the list shows it', async () => {
    jest.mocked(listDiscountCodes).mockResolvedValueOnce({ codes: [] });
    await openAsAdmin();
    expect(await screen.findByText('No discount codes yet. The codes you create show here with their use.')).toBeTruthy();

    fireEvent.change(form().getByLabelText('Code'), { target: { value: 'spring25' } });
    fireEvent.click(form().getByText('Standard ($0.65)'));
    fireEvent.change(form().getByLabelText('Uses'), { target: { value: '3' } });
    fireEvent.change(form().getByLabelText('Last day (optional)'), { target: { value: '2031-01-31' } });
    const expiresAt = new Date(2031, 0, 31, 23, 59, 59, 999).toISOString();
    jest.mocked(createDiscountCode).mockResolvedValue({ code: 'SPRING25', covers: 'standard', maxUses: 3, usesLeft: 3, expiresAt });
    jest.mocked(listDiscountCodes).mockResolvedValue({ codes: [summary({ code: 'SPRING25', covers: 'standard', maxUses: 3, usesLeft: 3, expiresAt })] });
    fireEvent.click(form().getByRole('button', { name: 'Create code' }));

    await waitFor(() => expect(createDiscountCode).toHaveBeenCalledWith({ body: { code: 'SPRING25', covers: 'standard', maxUses: 3, expiresAt } }, QUIET_CALL));
    const created = await codeItem('SPRING25');
    expect(created.getByText('Standard ($0.65)')).toBeTruthy();
    expect(created.getByText('0 of 3 · 3 left')).toBeTruthy();
    expect(listDiscountCodes).toHaveBeenCalledTimes(2);
    // The form is empty again, ready for the next code.
    await waitFor(() => expect((form().getByLabelText('Code') as HTMLInputElement).value).toBe(''));
  });

  it('when the code is empty or already exists, then the message shows under the code', async () => {
    await openAsAdmin();
    fireEvent.click(form().getByRole('button', { name: 'Create code' }));
    expect(await form().findByText('Discount code should not be empty')).toBeTruthy();
    expect(createDiscountCode).not.toHaveBeenCalled();

    jest.mocked(createDiscountCode).mockRejectedValue(new ApiError('This discount code already exists.', 409, 'conflict'));
    fireEvent.change(form().getByLabelText('Code'), { target: { value: 'welcome' } });
    fireEvent.click(form().getByRole('button', { name: 'Create code' }));
    expect(await form().findByText('This discount code already exists.')).toBeTruthy();
    expect(listDiscountCodes).toHaveBeenCalledTimes(1);
  });
});
