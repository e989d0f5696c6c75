import Dropdown from 'antd/es/dropdown';
import LockOutlined from '@ant-design/icons/es/icons/LockOutlined';
import FolderAddOutlined from '@ant-design/icons/es/icons/FolderAddOutlined';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import { useAppDispatch } from '../../../app/hooks';
import { modalOpened } from '../../../app/ui';

/**
 * The owner's menu on their piece (an admin's too: admins may change any piece): Privacy opens the settings (Privacy)
 * modal, Project the project modal (add the piece to a project, or create one with it).
 */
export function DetailOwnerMenu({ contentId, title }: { contentId: string; title: string }) {
  const dispatch = useAppDispatch();
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'privacy', label: 'Privacy', icon: <LockOutlined aria-hidden /> },
          { key: 'project', label: 'Project', icon: <FolderAddOutlined aria-hidden /> },
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
