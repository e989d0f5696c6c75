/**
 * "Download statement" on the wallet: the period chosen (this month, last month, this year, a custom range of days,
 * in UTC) and the format become the call's query, and the answer is saved as the file the server names; a custom
 * range without its days, or backwards, is refused on the page. Through the real HTTP client, the file is saved as
 * the server's exact text (never parsed), and a refusal shows the server's message. The generated operations are
 * mocked (but where the real client runs); the store, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { downloadStatement, getUserHistory, getWalletSummary } from '../../client/src/api/generated/operations';
import { toastTexts } from './profile-fixtures';
import { catchSavedFiles, jane, renderAsMember, restoreNetwork, sendThroughHttp, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const CSV =
  'date,entry,kind,piece_id,piece,triggered_by,gross_usd,share_usd,balance_usd,price_xlm\r\n2026-11-01T00:00:00.000Z,,opening balance,,,,,,3.000000,\r\n';
const utcMonth = (monthsBack: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1)).toISOString().slice(0, 7);
};

beforeEach(() => {
  jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 3 }));
  jest.mocked(getUserHistory).mockResolvedValue({ items: [], nextCursor: null });
  jest.mocked(downloadStatement).mockReset();
});

afterEach(() => {
  restoreNetwork();
  jest.restoreAllMocks();
});

async function statementForm() {
  await renderAsMember('/wallet');
  const section = await screen.findByRole('region', { name: 'Statement' });
  return within(within(section).getByRole('form', { name: 'Download statement' }));
}

async function choosePeriod(option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Period' }));
  fireEvent.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

describe('the wallet: Download statement', () => {
  it("when Jane downloads this month's statement as CSV (the choice it opens with), then this UTC month is asked for and saved under the server's name", async () => {
    const saved = catchSavedFiles();
    jest.mocked(downloadStatement).mockResolvedValue(CSV);
    const form = await statementForm();
    expect(within(screen.getByRole('combobox', { name: 'Period' }).closest('.ant-select')!).getByText('This month')).toBeTruthy();
    expect(form.getByRole('radio', { name: 'CSV (spreadsheets)' })).toHaveProperty('checked', true);
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(toastTexts()).toContain('Your statement is downloaded.'));
    expect(downloadStatement).toHaveBeenCalledWith({ path: { id: jane().id }, query: { format: 'csv', month: utcMonth(0) } }, expect.anything());
    expect(saved.map(({ name, type }) => [name, type])).toEqual([[`knack-statement-${utcMonth(0)}.csv`, 'text/csv;charset=utf-8']]);
    expect(await saved[0]!.text).toBe(CSV);
  });

  it('when she chooses last month as JSON, then last UTC month is asked for and saved as a JSON file', async () => {
    const saved = catchSavedFiles();
    jest.mocked(downloadStatement).mockResolvedValue('{"format":"knack-statement/1"}\n');
    const form = await statementForm();
    await choosePeriod('Last month');
    fireEvent.click(form.getByRole('radio', { name: 'JSON' }));
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(downloadStatement).toHaveBeenCalledWith({ path: { id: jane().id }, query: { format: 'json', month: utcMonth(1) } }, expect.anything());
    expect([saved[0]!.name, saved[0]!.type]).toEqual([`knack-statement-${utcMonth(1)}.json`, 'application/json']);
  });

  it('when she chooses this year, then its days from January 1st to today (UTC) are asked for', async () => {
    const saved = catchSavedFiles();
    jest.mocked(downloadStatement).mockResolvedValue(CSV);
    const form = await statementForm();
    await choosePeriod('This year');
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const today = new Date().toISOString().slice(0, 10);
    const from = `${today.slice(0, 4)}-01-01`;
    expect(downloadStatement).toHaveBeenCalledWith({ path: { id: jane().id }, query: { format: 'csv', from, to: today } }, expect.anything());
    expect(saved[0]!.name).toBe(`knack-statement-${from}-to-${today}.csv`);
  });

  it('when she chooses a custom range, then its days are asked for; without both days, or backwards, the page says so and asks nothing', async () => {
    const saved = catchSavedFiles();
    jest.mocked(downloadStatement).mockResolvedValue(CSV);
    const form = await statementForm();
    await choosePeriod('Custom range');
    fireEvent.change(form.getByLabelText('From'), { target: { value: '2026-03-10' } });
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose the first and the last day.');
    fireEvent.change(form.getByLabelText('To'), { target: { value: '2026-03-01' } });
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The start date must be on or before the end date.');
    expect(downloadStatement).not.toHaveBeenCalled();

    fireEvent.change(form.getByLabelText('To'), { target: { value: '2026-04-09' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(downloadStatement).toHaveBeenCalledWith(
      { path: { id: jane().id }, query: { format: 'csv', from: '2026-03-10', to: '2026-04-09' } },
      expect.anything(),
    );
    expect(saved[0]!.name).toBe('knack-statement-2026-03-10-to-2026-04-09.csv');
  });

  it("when the file comes through the real HTTP client, then its exact text is saved, never parsed, with the session's token; a refusal shows the server's message and saves nothing", async () => {
    const saved = catchSavedFiles();
    const json = '{"format":"knack-statement/1","memberId":"x","lines":[\n{"kind":"opening balance"}\n],"closingBalanceMicros":3000000}\n';
    let answer = { status: 200, data: json as unknown };
    const sent = sendThroughHttp(['downloadStatement'], () => answer);
    const form = await statementForm();
    fireEvent.click(form.getByRole('radio', { name: 'JSON' }));
    fireEvent.click(form.getByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text).toBe(json);
    expect(sent).toEqual([
      { method: 'GET', url: `/wallet/statement/${jane().id}`, body: undefined, authorization: expect.stringMatching(/^Bearer /) as unknown },
    ]);

    // A refused download answers the error as JSON text, which the client still reads.
    answer = { status: 429, data: '{"message":"Too many statement downloads. Please wait and try again.","code":"too_many_requests"}' };
    // Once the first download is over, the button is ready again (not loading).
    fireEvent.click(await form.findByRole('button', { name: 'Download statement' }));
    await waitFor(() => expect(toastTexts()).toContain('Too many statement downloads. Please wait and try again.'));
    expect(saved).toHaveLength(1);
  });
});
