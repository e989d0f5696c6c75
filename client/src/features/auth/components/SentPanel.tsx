import type { ReactNode } from 'react';
import Button from 'antd/es/button';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';

/**
 * 'Check Your Email' (signup, or a login before activation) and 'Email Sent' (forgot password):
 * the server's message as the title, what to do next, and the junk-mail hint.
 */
export function SentPanel({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
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
      {actions ? <div className="kn-auth__sent-actions">{actions}</div> : null}
    </section>
  );
}

export function CloseButton({ onClick, children = 'Close' }: { onClick: () => void; children?: ReactNode }) {
  return (
    <Button size="large" block onClick={onClick}>
      {children}
    </Button>
  );
}
