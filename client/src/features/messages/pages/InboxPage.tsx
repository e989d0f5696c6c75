import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from 'antd/es/button';
import Segmented from 'antd/es/segmented';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import StarFilled from '@ant-design/icons/es/icons/StarFilled';
import StarOutlined from '@ant-design/icons/es/icons/StarOutlined';
import {
  blockMessageSender,
  deleteMessage,
  getDeletedMessages,
  getMessagesByReceiver,
  getMessageThread,
  getSupportAccount,
  restoreMessage,
  setMessageImportant,
  updateMessageRead,
  type GetMessagesByReceiverResult,
  type GetMessageThreadResult,
} from '../../../api/generated/operations';
import { toApiError } from '../../../api/http';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { inboxChanged, modalOpened, type InboxCounts } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { PageHead } from '../../../components/PageHead';
import { selectIsAdmin, selectUser } from '../../auth';
import '../components/messages.css';

type Thread = GetMessagesByReceiverResult['threads'][number];
type Folder = 'inbox' | 'deleted';

const when = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /inbox: the member's threads, newest activity first (Inbox or Deleted), and the open thread with its marks
 * (important, read), delete or restore, block, and reply (the recipient locked). Admins also open the support
 * inbox, where they answer as the support account. The open thread is in the address (`?thread=`), as the
 * new-message mail links it.
 */
export default function InboxPage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  // Read here, not through the feature's selector: this lazy chunk must not bring the feature's eager code.
  const version = useAppSelector((state) => state.messages.version);
  const [params, setParams] = useSearchParams();
  const openId = params.get('thread');
  const [folder, setFolder] = useState<Folder>('inbox');
  const [supportId, setSupportId] = useState<string | null>(null);
  const [asSupport, setAsSupport] = useState(false);
  const [threads, setThreads] = useState<Thread[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [view, setView] = useState<GetMessageThreadResult | null>(null);
  const boxOwner = asSupport && supportId ? supportId : user?.id;
  /** The thread and message count last marked read: marking it changes the version, which must not mark it again. */
  const markedRead = useRef('');

  useEffect(() => {
    if (!isAdmin) return;
    getSupportAccount({}, { quiet: true })
      .then((account) => setSupportId(account.id))
      .catch(() => undefined);
  }, [isAdmin]);

  const loadList = useCallback(
    async (cursor?: string) => {
      if (!boxOwner) return;
      const call = folder === 'inbox' ? getMessagesByReceiver : getDeletedMessages;
      const page = await call({ path: { id: boxOwner }, query: cursor ? { cursor } : {} });
      setThreads((before) => (cursor ? [...(before ?? []), ...page.threads] : page.threads));
      setNextCursor(page.nextCursor);
    },
    [boxOwner, folder],
  );

  useEffect(() => {
    void loadList().catch(() => undefined);
  }, [loadList, version]);

  useEffect(() => {
    if (!openId || !boxOwner) {
      setView(null);
      return;
    }
    let current = true;
    getMessageThread({ path: { id: openId } })
      .then(async (opened) => {
        if (!current) return;
        setView(opened);
        const mark = `${boxOwner}:${opened.thread.id}:${opened.thread.messagesCount}`;
        if (!opened.thread.isRead && markedRead.current !== mark) {
          markedRead.current = mark;
          const read = await updateMessageRead({ body: { userId: boxOwner, messageId: opened.thread.id } });
          if (current) dispatch(inboxChanged(asSupport ? undefined : read.counts));
        }
      })
      .catch(() => setView(null));
    return () => {
      current = false;
    };
  }, [openId, boxOwner, version, asSupport, dispatch]);

  if (!user || !boxOwner) return null;
  const open = (id: string | null) => setParams(id ? { thread: id } : {});
  const changed = (counts?: InboxCounts) => dispatch(inboxChanged(asSupport ? undefined : counts));
  const act = async (run: () => Promise<{ message: string; counts?: InboxCounts | undefined }>, toast = false) => {
    try {
      const answer = await run();
      if (toast) notify('success', answer.message);
      changed(answer.counts);
    } catch (error) {
      notify('error', toApiError(error).message);
    }
  };

  const thread = view?.thread;
  const reply = () =>
    thread &&
    dispatch(
      modalOpened({
        name: 'message',
        messageMode: 'reply',
        receiverId: thread.otherId,
        receiverName: thread.otherName,
        threadId: thread.id,
        subject: thread.subject,
        senderId: boxOwner,
      }),
    );

  return (
    <div className={`kn-inbox${openId ? ' kn-inbox--open' : ''}`}>
      <PageHead
        icon={<MailOutlined />}
        title={asSupport ? 'Support inbox' : 'Inbox'}
        sub={asSupport ? "Members' messages to Admin, answered as Knack support." : 'Your conversations with other members and with Knack support.'}
      />
      <div className="kn-inbox__bar">
        <Segmented<Folder>
          value={folder}
          onChange={(value) => {
            setFolder(value);
            open(null);
          }}
          options={[
            { value: 'inbox', label: 'Inbox' },
            { value: 'deleted', label: 'Deleted' },
          ]}
        />
        {isAdmin && supportId ? (
          <Button
            onClick={() => {
              setAsSupport(!asSupport);
              open(null);
            }}
          >
            {asSupport ? 'My inbox' : 'Support inbox'}
          </Button>
        ) : null}
        {asSupport ? null : (
          <Button type="primary" onClick={() => dispatch(modalOpened({ name: 'message', messageMode: 'create', receiverId: 'admin', receiverName: 'Admin' }))}>
            Write to Admin
          </Button>
        )}
      </div>
      <div className="kn-inbox__panes">
        <section className="kn-inbox__list" aria-label="Conversations">
          {threads === null ? <p className="kn-inbox__empty">Loading…</p> : null}
          {threads?.length === 0 ? <p className="kn-inbox__empty">{folder === 'inbox' ? 'No messages yet.' : 'No deleted conversations.'}</p> : null}
          <ul>
            {threads?.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  className={`kn-inbox__thread${item.isRead ? '' : ' kn-inbox__thread--unread'}${item.id === openId ? ' kn-inbox__thread--open' : ''}`}
                  onClick={() => open(item.id)}
                  data-testid="inbox-thread"
                >
                  <span className="kn-inbox__who">
                    {item.isImportant ? <StarFilled aria-label="Important" className="kn-inbox__star" /> : null}
                    {item.otherName}
                    {item.isRead ? null : <span className="kn-inbox__dot" aria-label="Unread" />}
                  </span>
                  <span className="kn-inbox__subject">{item.subject}</span>
                  <span className="kn-inbox__preview">{item.lastMessage}</span>
                  <time className="kn-inbox__time">{when(item.at)}</time>
                </button>
              </li>
            ))}
          </ul>
          {nextCursor ? <Button onClick={() => void loadList(nextCursor)}>More</Button> : null}
        </section>
        <section className="kn-inbox__view" aria-label="Conversation">
          {thread && view ? (
            <>
              <header className="kn-inbox__view-head">
                <Button className="kn-inbox__back" onClick={() => open(null)}>
                  Back
                </Button>
                <h2>{thread.subject}</h2>
                <p>With {thread.otherName}</p>
                <div className="kn-inbox__actions">
                  <Button
                    aria-pressed={thread.isImportant}
                    icon={thread.isImportant ? <StarFilled /> : <StarOutlined />}
                    onClick={() => void act(() => setMessageImportant({ body: { userId: boxOwner, messageId: thread.id, isImportant: !thread.isImportant } }))}
                  >
                    {thread.isImportant ? 'Important' : 'Mark important'}
                  </Button>
                  <Button
                    onClick={() => {
                      void act(() => updateMessageRead({ body: { userId: boxOwner, messageId: thread.id, isRead: false } }));
                      open(null);
                    }}
                  >
                    Mark unread
                  </Button>
                  {thread.isDeleted ? (
                    <Button onClick={() => void act(() => restoreMessage({ path: { id: thread.id } }), true).then(() => open(null))}>Restore</Button>
                  ) : (
                    <Button danger onClick={() => void act(() => deleteMessage({ path: { id: thread.id } }), true).then(() => open(null))}>
                      Delete
                    </Button>
                  )}
                  <Button
                    onClick={() =>
                      void act(async () => {
                        const answer = await blockMessageSender({ body: { userId: boxOwner, blockedId: thread.otherId, block: !view.blockedByMe } });
                        return { message: answer.message };
                      }, true)
                    }
                  >
                    {view.blockedByMe ? 'Unblock' : 'Block'}
                  </Button>
                </div>
              </header>
              <ol className="kn-inbox__messages">
                {view.messages.map((item) => (
                  <li key={item.id} className={`kn-inbox__message${item.senderId === boxOwner ? ' kn-inbox__message--mine' : ''}`}>
                    <span className="kn-inbox__from">{item.senderId === boxOwner ? 'You' : item.senderName}</span>
                    <p>{item.message}</p>
                    <time>{when(item.at)}</time>
                  </li>
                ))}
              </ol>
              <Button type="primary" onClick={reply}>
                Reply
              </Button>
            </>
          ) : (
            <p className="kn-inbox__empty">Choose a conversation.</p>
          )}
        </section>
      </div>
    </div>
  );
}
