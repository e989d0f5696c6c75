import { useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import PictureOutlined from '@ant-design/icons/es/icons/PictureOutlined';
import { useListAdminPiecesInfiniteQuery } from '../../../api/generated/endpoints';
import type { ListAdminPiecesArgs, ListAdminPiecesResult } from '../../../api/generated/operations';
import { mediaUrl } from '../../../api/mediaUrl';
import { usePagedList } from '../../../api/pagedList';
import { PageHead } from '../../../components/PageHead';
import { displayUsername } from '../../../lib/userNames';
import { actionsFor, PIECE_ACTION_LABELS, usePieceActions, type PieceAction } from '../components/pieceActions';
import '../admin.css';

type Query = NonNullable<ListAdminPiecesArgs['query']>;
type Row = ListAdminPiecesResult['pieces'][number] & { id: string };

const TYPES: { value: NonNullable<Query['type']> | ''; label: string }[] = [
  { value: '', label: 'All types' },
  { value: 'music', label: 'Music' },
  { value: 'art', label: 'Art' },
  { value: 'photos', label: 'Photos' },
];
const STATUSES: { value: NonNullable<Query['status']> | ''; label: string }[] = [
  { value: '', label: 'Any status' },
  { value: 'public', label: 'Public' },
  { value: 'hidden', label: 'Hidden' },
  { value: 'removed', label: 'Removed' },
];
const STATUS_LABELS: Record<Row['status'], string> = { public: 'Public', private: 'Private', hidden: 'Hidden', removed: 'Removed' };

const rowsOf = (page: ListAdminPiecesResult): Row[] => page.pieces.map((piece) => ({ ...piece, id: piece.content.id }));

/**
 * `/admin/pieces`: every piece, the newest first: searched by title or owner, filtered by type and status, in pages.
 * Each row has the admin's actions: re-post, remove from the pages (a re-posted one), hide or restore, and delete
 * (for the admins allowed to, after a question that says the listing fee is not refunded).
 */
export default function AdminPiecesPage() {
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState<Query>({});
  const result = useListAdminPiecesInfiniteQuery({ query, quiet: 'the page shows the failure in place of the table' });
  const list = usePagedList(result, rowsOf);
  const canDelete = result.currentData?.pages[0]?.canDelete ?? false;
  const actions = usePieceActions();
  const set = (change: Partial<Query>) => setQuery((current) => Object.fromEntries(Object.entries({ ...current, ...change }).filter(([, v]) => v)));

  return (
    <div className="kn-admin">
      <PageHead icon={<PictureOutlined aria-hidden />} title="Pieces" />
      <form
        className="kn-admin__filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          set({ q: typed.trim() });
        }}
      >
        <Input.Search
          aria-label="Search by title or owner"
          placeholder="Title or owner"
          value={typed}
          maxLength={100}
          allowClear
          onChange={(event) => setTyped(event.target.value)}
          onSearch={(value) => set({ q: value.trim() })}
        />
        <Select
          aria-label="Type"
          value={query.type ?? ''}
          options={TYPES}
          onChange={(value) => set({ type: (value || undefined) as Query['type'] })}
          popupMatchSelectWidth={false}
        />
        <Select
          aria-label="Status"
          value={query.status ?? ''}
          options={STATUSES}
          onChange={(value) => set({ status: (value || undefined) as Query['status'] })}
          popupMatchSelectWidth={false}
        />
      </form>
      {list.status === 'failed' ? (
        <p role="alert">
          {list.error?.message}{' '}
          <button type="button" className="kn-retry" onClick={list.retry}>
            Try again
          </button>
        </p>
      ) : list.status !== 'ready' ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : list.items.length === 0 ? (
        <p className="kn-page-sub">No piece matches.</p>
      ) : (
        <div className="kn-admin__scroll">
          <table className="kn-admin__table">
            <thead>
              <tr>
                <th scope="col">Piece</th>
                <th scope="col">Owner</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map(({ content, status }) => (
                <tr key={content.id}>
                  <td>
                    <a className="kn-admin__piece" href={content.link} target="_blank" rel="noreferrer">
                      <img src={mediaUrl(content.thumbPath)} alt="" width={40} height={40} loading="lazy" />
                      <span>{content.title}</span>
                    </a>
                    {content.featured ? <span className="kn-admin__tag">Re-posted</span> : null}
                  </td>
                  <td data-label="Owner">{displayUsername(content.ownerUsername)}</td>
                  <td className="kn-admin__type" data-label="Type">
                    {content.type}
                  </td>
                  <td data-label="Status">
                    <span className={`kn-admin__status kn-admin__status--${status}`}>{STATUS_LABELS[status]}</span>
                  </td>
                  <td>
                    <div className="kn-admin__actions" role="group" aria-label={`Actions for ${content.title}`}>
                      {actionsFor({ featured: content.featured, hidden: status === 'hidden' || status === 'removed', canDelete }).map((action: PieceAction) => (
                        <Button
                          key={action}
                          size="small"
                          danger={action === 'delete'}
                          disabled={actions.busy}
                          onClick={() => void actions.run(action, { id: content.id, title: content.title })}
                        >
                          {PIECE_ACTION_LABELS[action]}
                        </Button>
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.hasMore ? (
            <Button className="kn-admin__more" loading={list.loadingMore} onClick={list.loadMore}>
              Show more
            </Button>
          ) : null}
        </div>
      )}
      {actions.confirm}
    </div>
  );
}
