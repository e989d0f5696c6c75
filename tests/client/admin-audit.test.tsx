/**
 * The admins' audit log, `/admin/audit`: each entry names the call in words, its target, the admin, when and from
 * where, and each changed field as it was and as it became; the filters ask the server for one call or one target;
 * More loads the next page by its cursor. The generated operations are mocked; the store, router and antd are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getAuditLog } from '../../client/src/api/generated/operations';
import { makeAdmin, makeUser } from './auth-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const admin = makeAdmin;
const PIECE_ID = '64c000000000000000000009';

type Values = Record<string, string | number | boolean | null> | null;
const entry = (n: number, action: string, before: Values, after: Values) => ({
  id: `2026-05-14T12:00:0${n}.000Z-00000000000${n}`,
  at: `2026-05-14T12:00:0${n}.000Z`,
  actor: { id: '64b0000000000000000000a1', email: 'admin@knack.example' },
  action,
  target: { kind: 'piece', id: PIECE_ID },
  before,
  after,
  ip: '203.0.113.7',
  userAgent: 'Chromium',
});

beforeEach(() => {
  jest
    .mocked(getAuditLog)
    .mockReset()
    .mockImplementation(async (args) => {
      if (args?.query?.cursor === 'page-2')
        return { entries: [entry(1, 'trendContent', { featuredAt: null }, { featuredAt: '2026-05-14T12:00:01.000Z' })], nextCursor: null };
      if (args?.query?.action === 'resolveFlags') return { entries: [entry(2, 'resolveFlags', { isHide: false }, { isHide: true })], nextCursor: null };
      return { entries: [entry(3, 'updateStandardCredits', { sCredit: 0, note: null }, { sCredit: 3, note: 'Support gesture' })], nextCursor: 'page-2' };
    });
});

it('when an admin opens the audit log, then each entry says who did what to which target, before and after, and More loads the next page', async () => {
  await renderAsMember('/admin/audit', admin());
  const entries = await screen.findByRole('list', { name: 'Audit entries' });
  const credits = within(await within(entries).findByRole('listitem', { name: 'update standard credits' }));
  expect(credits.getByText(`piece ${PIECE_ID}`)).toBeTruthy();
  expect(credits.getByText(/admin@knack\.example/).textContent).toContain('203.0.113.7');
  expect(credits.getByText('sCredit').nextSibling!.textContent).toBe('0 → 3');
  expect(credits.getByText('note').nextSibling!.textContent).toBe('— → Support gesture');
  fireEvent.click(screen.getByRole('button', { name: 'More' }));
  await within(entries).findByRole('listitem', { name: 'trend content' });
  expect(getAuditLog).toHaveBeenLastCalledWith({ query: { cursor: 'page-2' } }, expect.anything());
});

it('when the admin filters by a call, then the server is asked for that call only', async () => {
  await renderAsMember('/admin/audit', admin());
  await screen.findByRole('listitem', { name: 'update standard credits' });
  fireEvent.change(screen.getByRole('textbox', { name: 'Call' }), { target: { value: ' resolveFlags ' } });
  fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
  await screen.findByRole('listitem', { name: 'resolve flags' });
  await waitFor(() => expect(getAuditLog).toHaveBeenLastCalledWith({ query: { action: 'resolveFlags' } }, expect.anything()));
  expect(screen.queryByRole('listitem', { name: 'update standard credits' })).toBeNull();
});
