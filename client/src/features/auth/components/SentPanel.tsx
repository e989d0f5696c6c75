import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalClosed } from '../../../lib/ui';

/**
 * 'Check Your Email' (signup, or a login before activation) and 'Email Sent' (forgot password):
 * the server's message as the title, what to do next, and the junk-mail hint; OK closes the modal, and `more` is
 * what else the person may do (send the email again, go back to log in).
 */
export function SentPanel({ title, children, more }: { title: string; children: ReactNode; more?: ReactNode }) {
  const dispatch = useAppDispatch();
  return (
    <section className="kn-auth__sent" role="status" aria-labelledby="kn-auth-sent-title">
      <span className="kn-auth__sent-icon" aria-hidden="true">
        <MailOutlined />
      </span>
      <h2 className="kn-auth__title" id="kn-auth-sent-title">
        {title}
      </h2>
      <div className="kn-auth__sent-text">{children}</div>
      <p className="kn-auth__junk">Don't see it within a few minutes? Check your junk mail (spam) folder.</p>
      <div className="kn-auth__sent-actions">
        <Button type="primary" size="large" block onClick={() => dispatch(modalClosed())}>
          OK
        </Button>
        {more}
      </div>
    </section>
  );
}
