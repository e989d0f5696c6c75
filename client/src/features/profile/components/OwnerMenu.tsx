import Dropdown from 'antd/es/dropdown';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import MoreOutlined from '@ant-design/icons/es/icons/MoreOutlined';
import type { Content } from '../../../lib/content';

/** The owner's menu on one of their pieces (an owner may remove their own content). */
export function OwnerMenu({ content, onDelete }: { content: Content; onDelete: (content: Content) => void }) {
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [{ key: 'delete', label: 'Delete', icon: <DeleteOutlined aria-hidden />, danger: true }],
        onClick: ({ key }) => {
          if (key === 'delete') onDelete(content);
        },
      }}
    >
      <button type="button" className="kn-owner-menu" aria-label={`Options for ${content.title}`}>
        <MoreOutlined aria-hidden />
      </button>
    </Dropdown>
  );
}
