import Dropdown from 'antd/es/dropdown';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import FolderAddOutlined from '@ant-design/icons/es/icons/FolderAddOutlined';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';

/**
 * The owner's menu on their piece, and an admin's on anyone's: each entry only where the server accepts it.
 * Privacy opens the settings (Privacy) modal, which the server takes from the owner and from any admin. Project opens
 * the project modal, which offers the viewer's own projects, and the server puts a piece only in a project of the
 * piece's owner: so Project is the owner's alone (an admin on another member's piece would only get 'Content not found').
 */
export function DetailOwnerMenu({ contentId, title, ownPiece }: { contentId: string; title: string; ownPiece: boolean }) {
  const dispatch = useAppDispatch();
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'privacy', label: 'Privacy', icon: <LockOutlined aria-hidden /> },
          ...(ownPiece ? [{ key: 'project', label: 'Project', icon: <FolderAddOutlined aria-hidden /> }] : []),
        ],
        onClick: ({ key }) => {
          if (key === 'privacy') dispatch(modalOpened({ name: 'privacy', contentId }));
          if (key === 'project') dispatch(modalOpened({ name: 'project', contentId }));
        },
      }}
    >
      <button type="button" className="kn-detail__owner-menu" aria-label={`Options for ${title}`}>
        <MoreOutlined aria-hidden />
      </button>
    </Dropdown>
  );
}
