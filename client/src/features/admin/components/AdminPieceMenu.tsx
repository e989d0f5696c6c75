import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import { actionsFor, PIECE_ACTION_LABELS, usePieceActions, type PieceAction } from './pieceActions';

export interface AdminPieceMenuProps {
  contentId: string;
  title: string;
  featured: boolean;
  hidden: boolean;
  /** The menu's other entries (the owner's: Privacy, Project), shown first. */
  items: NonNullable<MenuProps['items']>;
  onItem: (key: string) => void;
  onDeleted: () => void;
}

/**
 * A piece's own menu for an admin (in the content detail modal): the owner's entries, then the admin's actions on the
 * piece (re-post, take it off the pages, hide or restore, delete), as in the admin area's Pieces section. A lazy chunk
 * that only admins load.
 */
export default function AdminPieceMenu({ contentId, title, featured, hidden, items, onItem, onDeleted }: AdminPieceMenuProps) {
  const actions = usePieceActions(onDeleted);
  const adminActions = actionsFor({ featured, hidden });
  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          items: [
            ...items,
            { type: 'divider' as const },
            ...adminActions.map((action) => ({ key: `admin:${action}`, label: PIECE_ACTION_LABELS[action], danger: action === 'delete' })),
          ],
          onClick: ({ key }) => {
            if (key.startsWith('admin:')) void actions.run(key.slice('admin:'.length) as PieceAction, { id: contentId, title });
            else onItem(key);
          },
        }}
      >
        <button type="button" className="kn-detail__owner-menu" aria-label={`Options for ${title}`}>
          <MoreOutlined aria-hidden />
        </button>
      </Dropdown>
      {actions.confirm}
    </>
  );
}
