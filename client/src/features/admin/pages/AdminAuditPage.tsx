import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import AuditOutlined from '@ant-design/icons/es/icons/AuditOutlined';
import { useGetAuditLogInfiniteQuery } from '../../../api/generated/endpoints';
import type { GetAuditLogResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { PageHead } from '../../../components/PageHead';
import '../admin.css';

type Entry = GetAuditLogResult['entries'][number];

const entriesOf = (page: GetAuditLogResult) => page.entries;
const moment = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** An operationId or a target's kind in words: `updateStandardCredits` → `update standard credits`. */
const inWords = (action: string) => action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const shown = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** What changed: each field of before or after, as it was and as it became. */
function Changes({ entry }: { entry: Entry }) {
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (!fields.length) return null;
  return (
    <dl className="kn-audit__changes">
      {fields.map((field) => (
        <div key={field}>
          <dt>{field}</dt>
          <dd>
            {shown(before[field])} → {shown(after[field])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The valid filters the form holds: an action is an operationId, a target any id. */
interface Filters {
  action: string;
  targetId: string;
}

/**
 * The audit log, for admins: every admin action that changed something, newest first, 20 at a time: who, what, on
 * which target, the fields before and after, when and from where. Filtered by call and by target. Nobody can change
 * or remove an entry: the page only reads.
 */
export default function AdminAuditPage() {
  const [typed, setTyped] = useState<Filters>({ action: '', targetId: '' });
  const [filters, setFilters] = useState<Filters>({ action: '', targetId: '' });
  const action = filters.action.replace(/\s+/g, '');
  const query = { ...(action ? { action } : {}), ...(filters.targetId ? { targetId: filters.targetId } : {}) };
  const list = usePagedList(useGetAuditLogInfiniteQuery({ query }), entriesOf);
  const apply = () => setFilters({ action: typed.action.trim(), targetId: typed.targetId.trim() });

  return (
    <div className="kn-admin kn-audit">
      <PageHead
        icon={<AuditOutlined aria-hidden />}
        title="Audit log"
        sub="Every change made in the admin area, as it was recorded. Nobody can edit or remove an entry."
      />
      <form
        className="kn-audit__filters"
        aria-label="Filter the log"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <Input
          aria-label="Call"
          placeholder="Call, e.g. resolveFlags"
          value={typed.action}
          maxLength={100}
          onChange={(event) => setTyped({ ...typed, action: event.target.value })}
        />
        <Input
          aria-label="Target id"
          placeholder="Piece, member or request id"
          value={typed.targetId}
          maxLength={120}
          onChange={(event) => setTyped({ ...typed, targetId: event.target.value })}
        />
        <Button htmlType="submit" type="primary">
          Filter
        </Button>
        {filters.action || filters.targetId ? (
          <Button
            onClick={() => {
              setTyped({ action: '', targetId: '' });
              setFilters({ action: '', targetId: '' });
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      <ol className="kn-audit__list" aria-label="Audit entries">
        {list.items.map((entry) => (
          <li key={entry.id} className="kn-audit__entry" aria-label={inWords(entry.action)}>
            <div className="kn-audit__head">
              <strong>{inWords(entry.action)}</strong>
              {entry.target ? (
                <span className="kn-audit__target">
                  {inWords(entry.target.kind)} {entry.target.id}
                </span>
              ) : null}
            </div>
            <p className="kn-audit__who">
              {entry.actor.email} · <time dateTime={entry.at}>{moment(entry.at)}</time> · {entry.ip}
            </p>
            <Changes entry={entry} />
          </li>
        ))}
      </ol>
      {list.status === 'loading' ? <p className="kn-audit__muted">Loading…</p> : null}
      {list.status === 'ready' && list.items.length === 0 ? <p className="kn-audit__muted">No entry matches.</p> : null}
      {list.status === 'failed' ? (
        <p className="kn-audit__muted" role="alert">
          The log could not be loaded. <Button onClick={list.retry}>Retry</Button>
        </p>
      ) : null}
      {list.hasMore ? (
        <Button loading={list.loadingMore} onClick={list.loadMore}>
          More
        </Button>
      ) : null}
    </div>
  );
}
