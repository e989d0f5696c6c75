import { useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import type { CachedError } from '../../../api/cache';
import { useCreateMemberAccountMutation, useLazyGetTestMailboxQuery } from '../../../api/generated/endpoints';
import type { GetTestMailboxResult } from '../../../api/generated/operations';
import { notify } from '../../../components/notify';
import { emailProblem, normalizeEmail, normalizeUsername, usernameProblem } from '../../auth';
import { MEMBERS_TEXT } from './members.text';

interface AccountValues {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

const FIELDS = ['firstName', 'lastName', 'username', 'email', 'password'] as const;
const EMPTY: AccountValues = { firstName: '', lastName: '', username: '', email: '', password: '' };
const required = (field: (typeof FIELDS)[number]) => ({ required: true, whitespace: true, message: MEMBERS_TEXT.required[field] });
/** A rule from one of the sign-up form's checks, which answer the broken rule's message or null. */
const checked = (problem: (value: string) => string | null) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    const found = value?.trim() ? problem(value) : null;
    if (found) throw new Error(found);
  },
});

/**
 * The account-create modal: first name, last name, username, email and password, each required with the form's own
 * message ('You should input your first name.'), then the sign-up rules (checked here and again by the server, whose
 * refusals show under their field). "Test email" fills in a throwaway address on the outbox's domain; once the account
 * is made, a link opens its activation mail in the outbox.
 */
export function CreateAccountModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<AccountValues>();
  const [create, { isLoading: saving }] = useCreateMemberAccountMutation();
  const [fetchTestMailbox, { isFetching: makingAddress }] = useLazyGetTestMailboxQuery();
  const [testMailbox, setTestMailbox] = useState<GetTestMailboxResult | null>(null);
  const [created, setCreated] = useState<{ username: string; email: string } | null>(null);

  const close = () => {
    form.resetFields();
    setTestMailbox(null);
    setCreated(null);
    onClose();
  };

  const fillTestEmail = async () => {
    try {
      const mailbox = await fetchTestMailbox({ quiet: 'the modal tells a failure itself' }).unwrap();
      setTestMailbox(mailbox);
      form.setFieldsValue({ email: mailbox.email });
      void form.validateFields(['email']).catch(() => undefined);
    } catch (error) {
      notify('error', (error as CachedError).message);
    }
  };

  const submit = async (values: AccountValues) => {
    try {
      const answer = await create({
        body: {
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          username: values.username,
          email: values.email.trim(),
          password: values.password,
        },
        quiet: 'the form shows a refusal under its field, and any other as a toast itself',
      }).unwrap();
      notify('success', answer.message);
      setCreated({ username: answer.member.username, email: answer.member.email });
    } catch (error) {
      const failure = error as CachedError;
      const field = failure.status === 409 ? 'email' : FIELDS.find((name) => failure.errors?.some((item) => item.path === name));
      if (field) form.setFields([{ name: field, errors: [failure.message] }]);
      else notify('error', failure.message);
    }
  };

  const outboxLink = created && testMailbox?.outboxUrl && normalizeEmail(created.email) === normalizeEmail(testMailbox.email) ? testMailbox.outboxUrl : null;

  return (
    <Modal
      open={open}
      onCancel={close}
      title="Create an account"
      destroyOnHidden
      footer={
        created
          ? [
              <Button key="done" type="primary" onClick={close}>
                Done
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                Cancel
              </Button>,
              <Button key="create" type="primary" loading={saving} onClick={() => form.submit()}>
                Create account
              </Button>,
            ]
      }
    >
      {created ? (
        <div className="kn-members__created" role="status">
          <p>
            <strong>@{created.username}</strong> is created and waits for activation. The activation mail went to {created.email}.
          </p>
          {outboxLink ? (
            <a href={outboxLink} target="_blank" rel="noreferrer">
              {MEMBERS_TEXT.openOutbox}
            </a>
          ) : null}
        </div>
      ) : (
        <Form<AccountValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={EMPTY}
          disabled={saving}
          onFinish={(values) => void submit(values)}
          aria-label="Create an account"
          className="kn-members__create"
        >
          <div className="kn-members__names">
            <Form.Item name="firstName" label="First name" rules={[required('firstName')]}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
            <Form.Item name="lastName" label="Last name" rules={[required('lastName')]}>
              <Input maxLength={100} autoComplete="off" />
            </Form.Item>
          </div>
          <Form.Item
            name="username"
            label="Username"
            rules={[required('username'), checked(usernameProblem)]}
            normalize={(value: string) => value.toLowerCase()}
            extra="6 to 30 characters; spaces become underscores."
          >
            <Input
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
              onBlur={(event) => form.setFieldValue('username', normalizeUsername(event.target.value))}
            />
          </Form.Item>
          <Form.Item label="Email" required={false}>
            <div className="kn-members__email">
              <Form.Item name="email" noStyle rules={[required('email'), checked(emailProblem)]}>
                <Input aria-label="Email" maxLength={254} autoComplete="off" spellCheck={false} />
              </Form.Item>
              <Button onClick={() => void fillTestEmail()} loading={makingAddress}>
                Test email
              </Button>
            </div>
          </Form.Item>
          {testMailbox ? (
            <Alert
              className="kn-members__mailbox-note"
              type={testMailbox.delivery === 'outbox' ? 'info' : 'warning'}
              showIcon
              message={testMailbox.delivery === 'outbox' ? MEMBERS_TEXT.testEmailOutbox : MEMBERS_TEXT.testEmailSmtp}
            />
          ) : null}
          <Form.Item
            name="password"
            label="Password"
            rules={[required('password')]}
            extra="At least 8 characters, with a lowercase and an uppercase letter, a digit and one of !@#$%^&*."
          >
            <Input.Password maxLength={1024} autoComplete="new-password" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
