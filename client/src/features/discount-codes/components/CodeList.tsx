import { displayUsername } from '../../../lib/userNames';
import { COVER_LABELS, formatDay, formatMoment, type DiscountCodeSummary } from '../discountCodes';

function expiryOf(code: DiscountCodeSummary): string {
  if (!code.expiresAt) return 'No expiry';
  return `${code.expired ? 'Expired' : 'Expires'} ${formatDay(code.expiresAt)}`;
}

/** Used up, expired, or still good: what a payer typing it now would get. */
function stateOf(code: DiscountCodeSummary): { label: string; tone: 'live' | 'over' } {
  if (code.expired) return { label: 'Expired', tone: 'over' };
  if (code.usesLeft === 0) return { label: 'Used up', tone: 'over' };
  return { label: 'Active', tone: 'live' };
}

/** Every code, newest first: what it covers, its uses and those left, its expiry, and who used it lately. */
export function CodeList({ codes }: { codes: DiscountCodeSummary[] }) {
  if (!codes.length) return <p className="kn-codes__empty">No discount codes yet. The codes you create show here with their use.</p>;
  return (
    <ul className="kn-codes__list">
      {codes.map((code) => {
        const state = stateOf(code);
        return (
          <li key={code.code} className="kn-codes__item" aria-label={code.code}>
            <div className="kn-codes__item-head">
              <strong className="kn-codes__code">{code.code}</strong>
              <span className={`kn-codes__state kn-codes__state--${state.tone}`}>{state.label}</span>
            </div>
            <dl className="kn-codes__facts">
              <div>
                <dt>Covers</dt>
                <dd>{COVER_LABELS[code.covers]}</dd>
              </div>
              <div>
                <dt>Used</dt>
                <dd>
                  {code.uses} of {code.maxUses} · {code.usesLeft} left
                </dd>
              </div>
              <div>
                <dt>Expiry</dt>
                <dd>{expiryOf(code)}</dd>
              </div>
            </dl>
            {code.recentUses.length ? (
              <div className="kn-codes__uses-list">
                <span className="kn-codes__uses-title">{code.uses > code.recentUses.length ? 'Latest uses' : 'Uses'}</span>
                <ul>
                  {code.recentUses.map((use) => (
                    <li key={`${use.userId}:${use.contentId}:${use.at}`}>
                      <span>{use.username ? displayUsername(use.username) : 'A deleted account'}</span>
                      <span className="kn-codes__muted">{use.contentTitle ?? 'a deleted piece'}</span>
                      <time dateTime={use.at} className="kn-codes__muted">
                        {formatMoment(use.at)}
                      </time>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="kn-codes__muted kn-codes__unused">Not used yet.</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
