import Button from 'antd/es/button';
import Skeleton from 'antd/es/skeleton';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import type { CachedError } from '../../../api/cache';
import { useGetSupportAccountQuery } from '../../../api/generated/endpoints';
import { PageHead } from '../../../components/PageHead';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { Mailbox } from '../../messages/entry';

/**
 * The admin area's support inbox: members' messages to 'Admin' (the support account), opened and answered as Knack
 * support with the view-message and create-message modals of the inbox; "New message" writes to a member as support.
 */
export default function AdminSupportPage() {
  const dispatch = useAppDispatch();
  const support = useGetSupportAccountQuery();
  const supportId = support.data?.id;

  return (
    <div className="kn-inbox-page">
      <PageHead icon={<CustomerServiceOutlined aria-hidden />} title="Support inbox" sub="Members' messages to Admin, answered as Knack support." />
      {support.error ? <p role="alert">{(support.error as CachedError).message}</p> : null}
      {supportId ? (
        <Mailbox
          boxOwner={supportId}
          actions={
            <Button type="primary" onClick={() => dispatch(modalOpened({ name: 'message', messageMode: 'create', senderId: supportId }))}>
              New message
            </Button>
          }
        />
      ) : support.error ? null : (
        <Skeleton active paragraph={{ rows: 4 }} />
      )}
    </div>
  );
}
