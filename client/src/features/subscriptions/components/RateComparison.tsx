import { formatUsd } from '../../../components/format';
import { KNACK_RATE_FROM, STREAM_RATES } from '../subscriptions.messages';

/** Others pay fractions of a cent per stream: those rates show 4 decimals, so that they do not all read $0.00. */
const perPlay = (usd: number) => formatUsd(usd, usd < 0.01 ? 4 : 2);

/** What one play or view pays the artist: Knack beside the reported per-stream rates of others. */
export function RateComparison() {
  return (
    <table className="kn-rates">
      <caption>What one play pays the artist</caption>
      <thead>
        <tr>
          <th scope="col">Where</th>
          <th scope="col">Per play or view</th>
        </tr>
      </thead>
      <tbody>
        <tr className="kn-rates__knack">
          <th scope="row">Knack</th>
          <td>{perPlay(KNACK_RATE_FROM)} and up</td>
        </tr>
        {STREAM_RATES.map((rate) => (
          <tr key={rate.platform}>
            <th scope="row">{rate.platform}</th>
            <td>{perPlay(rate.perStream)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
