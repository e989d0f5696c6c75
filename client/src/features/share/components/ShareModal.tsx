import { useState } from 'react';
import Alert from 'antd/es/alert';
import Modal from 'antd/es/modal';
import Skeleton from 'antd/es/skeleton';
import Tabs from 'antd/es/tabs';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { useGetContentByIdQuery } from '../../../api/generated/endpoints';
import { selectContentDetail } from '../../content-detail';
import { modalClosed, selectIsPhone, selectModalProps } from '../../../lib/ui';
import { pauseRequested } from '../../player';
import type { SharedPiece } from '../share.links';
import { EmbedTab } from './EmbedTab';
import { ShareTab } from './ShareTab';
import './share.css';

type TabKey = 'share' | 'embed' | 'message';

/** The piece: the one open in the detail modal when it is that one, else read by id. */
function useSharedPiece(contentId: string | undefined): { piece?: SharedPiece; failed: boolean } {
  const open = useAppSelector(selectContentDetail).content;
  const known = open && open.id === contentId ? open : undefined;
  const read = useGetContentByIdQuery({ path: { id: contentId ?? '' } }, { skip: !contentId || Boolean(known) });
  return { piece: known ?? read.currentData?.content, failed: read.isError || !contentId };
}

/**
 * The share modal: tabs Share, Embed and a disabled Message. 627 × 431 on desktops; the whole
 * width on phones, 432 high. Visitors may share too; only the invite asks them to log in.
 */
export default function ShareModal({ open }: { name: 'share'; open: boolean }) {
  const dispatch = useAppDispatch();
  const isPhone = useAppSelector(selectIsPhone);
  const { contentId } = useAppSelector(selectModalProps);
  const { piece, failed } = useSharedPiece(contentId);
  const [tab, setTab] = useState<TabKey>('share');

  const changeTab = (key: string) => {
    // Switching to the embed preview pauses the song.
    if (key === 'embed') dispatch(pauseRequested());
    setTab(key as TabKey);
  };

  return (
    <Modal
      open={open}
      onCancel={() => dispatch(modalClosed())}
      afterClose={() => setTab('share')}
      footer={null}
      centered={!isPhone}
      width={isPhone ? '100%' : 627}
      title={piece ? `Share “${piece.title}”` : 'Share'}
      rootClassName={`kn-share${isPhone ? ' kn-share--phone' : ''}`}
      destroyOnHidden
    >
      {piece ? (
        <Tabs
          activeKey={tab}
          onChange={changeTab}
          items={[
            { key: 'share', label: 'Share', children: <ShareTab piece={piece} /> },
            { key: 'embed', label: 'Embed', children: <EmbedTab piece={piece} /> },
            { key: 'message', label: 'Message', disabled: true },
          ]}
        />
      ) : failed ? (
        <Alert type="error" showIcon title="This piece is not available." />
      ) : (
        <Skeleton active paragraph={{ rows: 5 }} />
      )}
    </Modal>
  );
}
