import type { CallOptions } from '../../../api/cache';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from 'antd/es/button';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import { useGetSupportAccountQuery } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { PageHead } from '../../../components/PageHead';
import { selectIsAdmin, selectUser } from '../../auth';
import { Mailbox } from '../components/Mailbox';
import '../components/messages.css';

/**
 * The support account read quietly: without it, admins see their own inbox only.
 */
const SUPPORT_ACCOUNT_QUIETLY: CallOptions = { quiet: 'without the support account, admins see their own inbox only' };

/** /inbox: the member's own inbox; admins also switch to the support inbox, where they answer as the support account. */
export default function InboxPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const [, setParams] = useSearchParams();
  const [asSupport, setAsSupport] = useState(false);
  const supportId = useGetSupportAccountQuery(isAdmin ? SUPPORT_ACCOUNT_QUIETLY : skipToken).data?.id;
  const boxOwner = asSupport && supportId ? supportId : user?.id;
  if (!user || !boxOwner) return null;

  return (
    <div className="kn-inbox-page">
      <PageHead
        icon={<MailOutlined />}
        title={asSupport ? 'Support inbox' : 'Inbox'}
        sub={asSupport ? "Members' messages to Admin, answered as Knack support." : 'Your conversations with other members and with Knack support.'}
      />
      <Mailbox
        key={boxOwner}
        boxOwner={boxOwner}
        actions={
          <>
            {isAdmin && supportId ? (
              <Button
                onClick={() => {
                  setAsSupport(!asSupport);
                  setParams({});
                }}
              >
                {asSupport ? 'My inbox' : 'Support inbox'}
              </Button>
            ) : null}
            {asSupport ? null : (
              <Button
                type="primary"
                onClick={() => dispatch(modalOpened({ name: 'message', messageMode: 'create', receiverId: 'admin', receiverName: 'Admin' }))}
              >
                Write to Admin
              </Button>
            )}
          </>
        }
      />
    </div>
  );
}
