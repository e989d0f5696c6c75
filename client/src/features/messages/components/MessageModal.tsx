import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import { useCreateMessageMutation, useReplyMessageMutation } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/UserAvatar';
import { selectUser } from '../../auth';
import { useToastedCall } from '../../../lib/useToastedCall';
import { MESSAGE_TEXT } from '../messages.text';
import { useMemberMatches, type MemberMatch } from '../useMemberMatches';
import './messages.css';

/** The recipient list's own entry: messages to 'Admin' go to the support account. */
const ADMIN_ID = 'admin';

/** One entry of the recipient list: a member (with their username and photo when known), or 'Admin'. */
interface Recipient {
  id: string;
  name: string;
  username?: string;
  image?: string | null;
}

const ADMIN_RECIPIENT: Recipient = { id: ADMIN_ID, name: MESSAGE_TEXT.adminRecipient };

const recipientOf = (member: MemberMatch): Recipient => ({ id: member.id, name: member.fullName, username: member.username, image: member.image });

/** What an entry shows: the avatar, @username and name of a member; Admin's badge and name. */
function RecipientLabel({ recipient }: { recipient: Recipient }) {
  const { username, name } = recipient;
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return (
    <span className="kn-recipient" title={username ? `@${username}${name ? ` (${name})` : ''}` : name}>
      {username ? (
        <UserAvatar user={{ username, firstName, lastName: rest.join(' '), image: recipient.image ?? null }} size={24} className="kn-recipient__avatar" />
      ) : recipient.id === ADMIN_ID ? (
        <span className="kn-recipient__avatar kn-recipient__avatar--admin" aria-hidden="true">
          <SafetyCertificateOutlined />
        </span>
      ) : null}
      {username ? <span className="kn-recipient__username">@{username}</span> : null}
      {name ? <span className={username ? 'kn-recipient__name' : 'kn-recipient__username'}>{name}</span> : null}
    </span>
  );
}

type OpenedFor = Pick<ReturnType<typeof selectModalProps>, 'receiverId' | 'receiverName' | 'receiverUsername' | 'receiverImage'>;

/** The recipient the modal opens with: the member (or 'Admin') it was opened for, if any. */
function openedFor({ receiverId, receiverName, receiverUsername, receiverImage }: OpenedFor): Recipient | null {
  if (!receiverId) return null;
  if (receiverId === ADMIN_ID) return ADMIN_RECIPIENT;
  return { id: receiverId, name: receiverName ?? 'Member', username: receiverUsername, image: receiverImage };
}

/**
 * The recipient field. Create: searches members by username as one types (asked once typing pauses, at most 8, each
 * with avatar, username and name), chosen with the mouse or the arrow keys and Enter; 'Admin' is always offered, and
 * the member the modal was opened for is chosen at first. Reply: the thread's other member, locked. Whether a member
 * accepts the message (a block) is the server's to say, when it is sent.
 */
function RecipientField({ recipient, onChange, locked }: { recipient: Recipient | null; onChange: (recipient: Recipient) => void; locked: boolean }) {
  const [typed, setTyped] = useState('');
  const { items, loading } = useMemberMatches(locked ? '' : typed);
  const searching = typed.trim().length > 0;
  const admin = ADMIN_RECIPIENT.name.toLowerCase().startsWith(typed.trim().toLowerCase());
  const entries: Recipient[] = searching
    ? [...items.map(recipientOf), ...(admin ? [ADMIN_RECIPIENT] : [])]
    : [...(recipient && recipient.id !== ADMIN_ID ? [recipient] : []), ADMIN_RECIPIENT];
  const options = entries.map((entry) => ({ value: entry.id, label: <RecipientLabel recipient={entry} />, recipient: entry }));
  const notFound = !searching ? null : loading ? 'Searching…' : `No member’s username starts with “${typed.trim()}”`;
  return (
    <Select<string, (typeof options)[number]>
      aria-label="Recipient"
      className="kn-message-form__recipient"
      value={recipient?.id}
      labelRender={() => (recipient ? <RecipientLabel recipient={recipient} /> : null)}
      onChange={(_value, option) => {
        const chosen = Array.isArray(option) ? option[0] : option;
        if (chosen) onChange(chosen.recipient);
        setTyped('');
      }}
      options={options}
      disabled={locked}
      showSearch={locked ? false : { filterOption: false, onSearch: setTyped, searchValue: typed }}
      loading={searching && loading}
      notFoundContent={notFound}
      placeholder="Search members by username"
      // Nine entries at most: a plain list, which also scrolls the entry the arrow keys reach into view.
      virtual={false}
      data-testid="message-recipient"
    />
  );
}

/**
 * The message modal. Create: a recipient (searched by username, or 'Admin'), a subject and the message. Reply: the
 * thread's other member, locked, and the message. Missing fields: 'Enter all required input fields'.
 */
export default function MessageModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const props = useAppSelector(selectModalProps);
  const replying = props.messageMode === 'reply';
  const [recipient, setRecipient] = useState<Recipient | null>(() => openedFor(props));
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const { busy, run } = useToastedCall();
  const [createMessage] = useCreateMessageMutation();
  const [replyMessage] = useReplyMessageMutation();

  const { receiverId, receiverName, receiverUsername, receiverImage, threadId } = props;
  useEffect(() => {
    if (!open) return;
    setRecipient(openedFor({ receiverId, receiverName, receiverUsername, receiverImage }));
    setSubject('');
    setMessage('');
  }, [open, receiverId, receiverName, receiverUsername, receiverImage, threadId]);
  const close = () => dispatch(modalClosed());

  const send = async () => {
    if (!user) return;
    const to = recipient?.id;
    const missing = !to || !message.trim() || (!replying && !subject.trim());
    if (missing) {
      notify('error', MESSAGE_TEXT.required);
      return;
    }
    // The modal tells the outcome itself (useToastedCall), and stays open on a refusal; the inbox and the badge
    // reload by themselves once the message is sent.
    const quiet = 'the modal toasts the refusal itself and stays open';
    const sent = await run(async () => {
      const senderId = props.senderId ?? user.id;
      const answer = replying
        ? await replyMessage({ body: { senderId, messageId: threadId ?? '', receiverId: to, message }, quiet }).unwrap()
        : await createMessage({ body: { senderId, receiverId: to, subject, message }, quiet }).unwrap();
      return answer.message;
    });
    if (sent) close();
  };

  return (
    <Modal
      open={open}
      onCancel={close}
      title={replying ? 'Reply' : 'New message'}
      footer={[
        <Button key="cancel" onClick={close}>
          Cancel
        </Button>,
        <Button key="send" type="primary" loading={busy} onClick={() => void send()}>
          Send
        </Button>,
      ]}
    >
      <div className="kn-message-form">
        <label className="kn-message-form__field">
          <span>To</span>
          <RecipientField recipient={recipient} onChange={setRecipient} locked={replying} />
        </label>
        {replying ? (
          <p className="kn-message-form__subject">Re: {props.subject}</p>
        ) : (
          <label className="kn-message-form__field">
            <span>Subject</span>
            <Input aria-label="Subject" value={subject} maxLength={200} onChange={(event) => setSubject(event.target.value)} />
          </label>
        )}
        <label className="kn-message-form__field">
          <span>Message</span>
          <Input.TextArea aria-label="Message" value={message} maxLength={5000} rows={5} onChange={(event) => setMessage(event.target.value)} />
        </label>
      </div>
    </Modal>
  );
}
