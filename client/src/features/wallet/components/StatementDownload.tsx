import { useState, type FormEvent } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import { knackApi } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import { saveFile } from '../../../lib/saveFile';
import { useAppDispatch } from '../../../lib/storeHooks';
import { FORMAT_TYPES, PERIOD_LABELS, statementRequest, utcDay, type StatementChoice, type StatementFormat, type StatementPeriod } from '../statement';

const PERIOD_OPTIONS = (Object.keys(PERIOD_LABELS) as StatementPeriod[]).map((value) => ({ value, label: PERIOD_LABELS[value] }));
const FORMAT_OPTIONS: { value: StatementFormat; label: string }[] = [
  { value: 'csv', label: 'CSV (spreadsheets)' },
  { value: 'json', label: 'JSON' },
];

export const STATEMENT_FORM_MESSAGES = {
  daysMissing: 'Choose the first and the last day.',
  reversed: 'The start date must be on or before the end date.',
  downloaded: 'Your statement is downloaded.',
} as const;

/** Why a custom range cannot be asked for yet, or null. */
function rangeProblem({ period, from, to }: StatementChoice): string | null {
  if (period !== 'custom') return null;
  if (!from || !to) return STATEMENT_FORM_MESSAGES.daysMissing;
  return from > to ? STATEMENT_FORM_MESSAGES.reversed : null;
}

/**
 * "Download statement" on the wallet: every entry of the member's money in a period (this month, last month, this year
 * or days they choose), each with their balance after it, as a CSV or JSON file. The file is asked for through the
 * app's HTTP client, with the session's token (renewed if it has expired), and handed to the browser to save, as
 * "Download my data" is; a refusal (too many downloads) shows as the server's toast.
 */
export function StatementDownload({ userId }: { userId: string }) {
  const dispatch = useAppDispatch();
  const [choice, setChoice] = useState<StatementChoice>({ period: 'this-month', format: 'csv' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const today = utcDay(new Date());

  const change = (part: Partial<StatementChoice>) => {
    setChoice((current) => ({ ...current, ...part }));
    setProblem(null);
  };

  const download = async (event: FormEvent) => {
    event.preventDefault();
    const refused = rangeProblem(choice);
    if (refused) {
      setProblem(refused);
      return;
    }
    setBusy(true);
    const { query, filename } = statementRequest(choice, new Date());
    // Asked afresh each time and not kept watched: a statement is the ledger as it is at that moment.
    const request = dispatch(knackApi.endpoints.downloadStatement.initiate({ path: { id: userId }, query }, { subscribe: false, forceRefetch: true }));
    try {
      saveFile(await request.unwrap(), filename, FORMAT_TYPES[choice.format]);
      notify('success', STATEMENT_FORM_MESSAGES.downloaded);
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="kn-wallet__statement" aria-labelledby="kn-statement-title">
      <h2 id="kn-statement-title" className="kn-section-title">
        Statement
      </h2>
      <p className="kn-wallet__statement-hint">
        Every play, view, fee, payout, cash-out and sale of the period, with your balance after each. Periods are in UTC.
      </p>
      <form className="kn-statement" onSubmit={(event) => void download(event)} noValidate aria-label="Download statement">
        <label className="kn-statement__field">
          <span>Period</span>
          <Select<StatementPeriod> aria-label="Period" options={PERIOD_OPTIONS} value={choice.period} onChange={(period) => change({ period })} />
        </label>
        {choice.period === 'custom' ? (
          <>
            <label className="kn-statement__field">
              <span>From</span>
              <Input type="date" aria-label="From" max={today} value={choice.from ?? ''} onChange={(event) => change({ from: event.target.value })} />
            </label>
            <label className="kn-statement__field">
              <span>To</span>
              <Input type="date" aria-label="To" max={today} value={choice.to ?? ''} onChange={(event) => change({ to: event.target.value })} />
            </label>
          </>
        ) : null}
        <fieldset className="kn-statement__field kn-statement__format">
          <legend>Format</legend>
          <Radio.Group options={FORMAT_OPTIONS} value={choice.format} onChange={(event) => change({ format: event.target.value as StatementFormat })} />
        </fieldset>
        <Button htmlType="submit" icon={<DownloadOutlined aria-hidden />} loading={busy}>
          Download statement
        </Button>
      </form>
      {problem ? (
        <p className="kn-statement__problem" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
