import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
import './button.css';

interface Look {
  /** primary: filled in the brand colour; default: outlined; text: no frame. */
  kind?: 'primary' | 'default' | 'text';
  size?: 'small' | 'middle' | 'large';
  /** Outlined in the brand colour (a primary action that should not shout). */
  ghost?: boolean;
  icon?: ReactNode;
}

const classOf = ({ kind = 'default', size = 'middle', ghost, icon }: Look, children: ReactNode, extra?: string) =>
  [
    'kn-button',
    `kn-button--${kind}`,
    size === 'middle' ? '' : `kn-button--${size}`,
    ghost ? 'kn-button--ghost' : '',
    icon && (children === undefined || children === null) ? 'kn-button--icon-only' : '',
    extra ?? '',
  ]
    .filter(Boolean)
    .join(' ');

function Content({ icon, children }: { icon?: ReactNode; children?: ReactNode }) {
  return (
    <>
      {icon ? (
        <span className="kn-button__icon" aria-hidden>
          {icon}
        </span>
      ) : null}
      {children === undefined || children === null ? null : <span>{children}</span>}
    </>
  );
}

/**
 * The buttons of the page frame and of the screens drawn without antd (the landing page, Explore, a profile, the
 * content pages, a piece's detail): native buttons drawn like antd's (same colours, corners and heights), so that
 * those screens need none of antd's code. Pages and modals that load antd with their own code use antd's Button.
 */
export function Button({
  kind,
  size,
  ghost,
  icon,
  loading = false,
  className,
  children,
  type = 'button',
  onClick,
  ...rest
}: Look & ButtonHTMLAttributes<HTMLButtonElement> & { /** Busy: a spinner for the icon, and clicks are ignored. */ loading?: boolean }) {
  const shown = loading ? <LoadingOutlined spin /> : icon;
  return (
    <button
      type={type}
      className={classOf({ kind, size, ghost, icon: shown }, children, className)}
      aria-busy={loading || undefined}
      onClick={loading ? undefined : onClick}
      {...rest}
    >
      <Content icon={shown}>{children}</Content>
    </button>
  );
}

/** A link drawn as a Button. */
export function ButtonLink({ kind, size, ghost, icon, className, children, ...rest }: Look & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a className={classOf({ kind, size, ghost, icon }, children, className)} {...rest}>
      <Content icon={icon}>{children}</Content>
    </a>
  );
}
