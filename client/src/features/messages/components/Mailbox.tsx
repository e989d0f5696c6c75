import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ReactNode } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from 'antd/es/button';
import Segmented from 'antd/es/segmented';
import StarFilled from '@ant-design/icons/es/icons/StarFilled';
import StarOutlined from '@ant-design/icons/es/icons/StarOutlined';
import {
  useBlockMessageSenderMutation,
  useDeleteMessageMutation,
  useGetDeletedMessagesInfiniteQuery,
  useGetMessagesByReceiverInfiniteQuery,
  useGetMessageThreadInfiniteQuery,
  useRestoreMessageMutation,
  useSetMessageImportantMutation,
  useUpdateMessageReadMutation,
} from '../../../api/generated/endpoints';
import type { GetMessagesByReceiverResult, GetMessageThreadResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { MessageText } from './MessageText';
import './messages.css';

type Folder = 'inbox' | 'deleted';

const when = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const threadsOf = (page: GetMessagesByReceiverResult) => page.threads;
/** A thread's pages come latest first (each the messages before the last): shown oldest first. */
const messagesOf = (pages: GetMessageThreadResult[]) => [...pages].reverse().flatMap((page) => page.messages);

export interface MailboxProps {
  /** Whose inbox it is: the member's own, or (for an admin) the support account's. */
  boxOwner: string;
  /** Buttons beside the Inbox / Deleted switch. */
  actions?: ReactNode;
}

/**
 * One inbox: its threads, newest activity first (Inbox or Deleted), and the open thread with its marks (important,
 * read), delete or restore, block, and reply (the recipient locked). An admin showing the support account's inbox
 * answers as support. The open thread is in the address (`?thread=`), as the new-message mail links it. Every list
 * and thread reads through the cache; a change reloads the reads of messages (lists, thread, the badge's counts) by
 * itself.
 */
export function Mailbox({ boxOwner, actions }: MailboxProps) {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const openId = params.get('thread');
  const [folder, setFolder] = useState<Folder>('inbox');
  const box = { path: { id: boxOwner } };
  const inbox = usePagedList(useGetMessagesByReceiverInfiniteQuery(folder === 'inbox' ? box : skipToken), threadsOf);
  const deleted = usePagedList(useGetDeletedMessagesInfiniteQuery(folder === 'deleted' ? box : skipToken), threadsOf);
  const list = folder === 'inbox' ? inbox : deleted;
  const opened = useGetMessageThreadInfiniteQuery(openId && boxOwner ? { path: { id: openId } } : skipToken);
  const pages = opened.currentData?.pages;
  // The latest page tells the thread as it is now (its marks, the block).
  const view = pages?.[0];
  const [markRead] = useUpdateMessageReadMutation();
  const [markImportant] = useSetMessageImportantMutation();
  const [remove] = useDeleteMessageMutation();
  const [restore] = useRestoreMessageMutation();
  const [block] = useBlockMessageSenderMutation();
  /** The thread and message count last marked read: a thread is marked once, not again as its reads reload. */
  const markedRead = useRef('');

  useEffect(() => {
    if (!view) return;
    const { thread } = view;
    const mark = `${boxOwner}:${thread.id}:${thread.messagesCount}`;
    if (thread.isRead || markedRead.current === mark) return;
    markedRead.current = mark;
    // A failure is told by the one error toast; the thread shows as unread until it is opened again.
    markRead({ body: { userId: boxOwner, messageId: thread.id } })
      .unwrap()
      .catch(() => undefined);
  }, [view, boxOwner, markRead]);

  const open = (id: string | null) => setParams(id ? { thread: id } : {});
  /** Runs a change; its success message as a toast when asked (a failure is told by the one error toast). */
  const act = async (change: { unwrap: () => Promise<{ message: string }> }, toast = false) => {
    try {
      const answer = await change.unwrap();
      if (toast) notify('success', answer.message);
    } catch {
      // told by the one error toast
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
        {actions}
      </div>
      <div className="kn-inbox__panes">
        <section className="kn-inbox__list" aria-label="Conversations">
          {list.status === 'loading' ? <p className="kn-inbox__empty">Loading…</p> : null}
          {list.status === 'failed' ? (
            <p className="kn-inbox__empty">
              The conversations could not be loaded. <Button onClick={list.retry}>Retry</Button>
            </p>
          ) : null}
          {list.status === 'ready' && list.items.length === 0 ? (
            <p className="kn-inbox__empty">{folder === 'inbox' ? 'No messages yet.' : 'No deleted conversations.'}</p>
          ) : null}
          <ul>
            {list.items.map((item) => (
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
          {list.hasMore ? (
            <Button loading={list.loadingMore} onClick={list.loadMore}>
              More
            </Button>
          ) : null}
        </section>
        <section className="kn-inbox__view" aria-label="Conversation">
          {thread && view && pages ? (
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
                    onClick={() => void act(markImportant({ body: { userId: boxOwner, messageId: thread.id, isImportant: !thread.isImportant } }))}
                  >
                    {thread.isImportant ? 'Important' : 'Mark important'}
                  </Button>
                  <Button
                    onClick={() => {
                      // Opened again, the thread is marked read again.
                      markedRead.current = '';
                      void act(markRead({ body: { userId: boxOwner, messageId: thread.id, isRead: false } }));
                      open(null);
                    }}
                  >
                    Mark unread
                  </Button>
                  {thread.isDeleted ? (
                    <Button onClick={() => void act(restore({ path: { id: thread.id } }), true).then(() => open(null))}>Restore</Button>
                  ) : (
                    <Button danger onClick={() => void act(remove({ path: { id: thread.id } }), true).then(() => open(null))}>
                      Delete
                    </Button>
                  )}
                  <Button onClick={() => void act(block({ body: { userId: boxOwner, blockedId: thread.otherId, block: !view.blockedByMe } }), true)}>
                    {view.blockedByMe ? 'Unblock' : 'Block'}
                  </Button>
                </div>
              </header>
              {opened.hasNextPage ? (
                <Button className="kn-inbox__earlier" loading={opened.isFetchingNextPage} onClick={() => void opened.fetchNextPage()}>
                  Earlier messages
                </Button>
              ) : null}
              <ol className="kn-inbox__messages">
                {messagesOf(pages).map((item) => (
                  <li key={item.id} className={`kn-inbox__message${item.senderId === boxOwner ? ' kn-inbox__message--mine' : ''}`}>
                    <span className="kn-inbox__from">{item.senderId === boxOwner ? 'You' : item.senderName}</span>
                    <p>
                      <MessageText text={item.message} />
                    </p>
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
