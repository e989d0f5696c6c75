import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { createMessage, replyMessage } from '../../../api/generated/operations';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { inboxChanged, modalClosed, selectModalProps } from '../../../app/ui';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import { useToastedCall } from '../../../lib/useToastedCall';
import { MESSAGE_TEXT } from '../messages.text';
import './messages.css';

/** The recipient list's own entry: messages to 'Admin' go to the support account. */
const ADMIN_OPTION = { value: 'admin', label: MESSAGE_TEXT.adminRecipient };

/**
 * The message modal. Create: a recipient (the member it was opened for, or 'Admin'), a subject and the message.
 * Reply: the thread's other member, locked, and the message. Missing fields: 'Enter all required input fields'.
 */
export default function MessageModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const props = useAppSelector(selectModalProps);
  const replying = props.messageMode === 'reply';
  const [receiverId, setReceiverId] = useState<string | undefined>(props.receiverId);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const { busy, run } = useToastedCall();

  useEffect(() => {
    if (!open) return;
    setReceiverId(props.receiverId);
    setSubject('');
    setMessage('');
  }, [open, props.receiverId, props.threadId]);

  const options = [
    ...(props.receiverId && props.receiverId !== ADMIN_OPTION.value ? [{ value: props.receiverId, label: props.receiverName ?? 'Member' }] : []),
    ...(replying && props.receiverId !== ADMIN_OPTION.value ? [] : [ADMIN_OPTION]),
  ];
  const close = () => dispatch(modalClosed());

  const send = async () => {
    if (!user) return;
    const missing = !receiverId || !message.trim() || (!replying && !subject.trim());
    if (missing) {
      notify('error', MESSAGE_TEXT.required);
      return;
    }
    const sent = await run(async () => {
      const senderId = props.senderId ?? user.id;
      const answer = replying
        ? await replyMessage({ body: { senderId, messageId: props.threadId ?? '', receiverId, message } }, { quiet: true })
        : await createMessage({ body: { senderId, receiverId, subject, message } }, { quiet: true });
      dispatch(inboxChanged(undefined));
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
          <Select
            aria-label="Recipient"
            value={receiverId}
            onChange={setReceiverId}
            options={options}
            disabled={replying}
            placeholder="Choose a recipient"
            data-testid="message-recipient"
          />
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
