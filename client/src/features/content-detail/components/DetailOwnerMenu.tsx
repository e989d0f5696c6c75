import { lazy, Suspense } from 'react';
import Dropdown from 'antd/es/dropdown';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import FolderAddOutlined from '@ant-design/icons/es/icons/FolderAddOutlined';
import SwapOutlined from '@ant-design/icons/es/icons/SwapOutlined';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { selectIsAdmin } from '../../auth';
import { loadAdminPieceMenu } from '../../admin';
import { contentRemoved } from '../contentDetail.slice';

/** The admin's menu brings the admin's actions on the piece: a chunk only admins load. */
const AdminPieceMenu = lazy(loadAdminPieceMenu);

export interface DetailOwnerMenuProps {
  contentId: string;
  title: string;
  ownPiece: boolean;
  /** Re-posted to the top of Featured (an admin may take it off the pages). */
  featured: boolean;
  /** Held off the lists (an admin may restore it). */
  hidden: boolean;
}

/**
 * The owner's menu on their piece, and an admin's on anyone's: each entry only where the server accepts it.
 * Privacy opens the settings (Privacy) modal, which the server takes from the owner and from any admin. Project opens
 * the project modal, which offers the viewer's own projects, and the server puts a piece only in a project of the
 * piece's owner: so Project is the owner's alone (an admin on another member's piece would only get 'Content not found').
 * Replace file opens the replace-file modal (a new song, cover or picture, and the earlier files to restore), which the
 * server takes from the owner and from any admin.
 * An admin's menu adds the admin's actions on the piece (re-post, remove from the pages, hide or restore, delete).
 * A lazy chunk with antd's Dropdown: only owners and admins load it.
 */
export default function DetailOwnerMenu({ contentId, title, ownPiece, featured, hidden }: DetailOwnerMenuProps) {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  const items = [
    { key: 'privacy', label: 'Privacy', icon: <LockOutlined aria-hidden /> },
    ...(ownPiece ? [{ key: 'project', label: 'Project', icon: <FolderAddOutlined aria-hidden /> }] : []),
    { key: 'replace-file', label: 'Replace file', icon: <SwapOutlined aria-hidden /> },
  ];
  const onItem = (key: string) => {
    if (key === 'privacy') dispatch(modalOpened({ name: 'privacy', contentId }));
    if (key === 'project') dispatch(modalOpened({ name: 'project', contentId }));
    if (key === 'replace-file') dispatch(modalOpened({ name: 'replace-file', contentId }));
  };
  const ownerMenu = (
    <Dropdown trigger={['click']} placement="bottomRight" menu={{ items, onClick: ({ key }) => onItem(key) }}>
      <button type="button" className="kn-detail__owner-menu" aria-label={`Options for ${title}`}>
        <MoreOutlined aria-hidden />
      </button>
    </Dropdown>
  );
  if (!isAdmin) return ownerMenu;
  // No stand-in while the admin's menu loads: a menu opened on a stand-in would close as the admin's replaced it.
  return (
    <Suspense fallback={null}>
      <AdminPieceMenu
        contentId={contentId}
        title={title}
        featured={featured}
        hidden={hidden}
        items={items}
        onItem={onItem}
        onDeleted={() => dispatch(contentRemoved(contentId))}
      />
    </Suspense>
  );
}
