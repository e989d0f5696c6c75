import { Button, ButtonLink } from '../button';
import HomeOutlined from '@ant-design/icons/es/icons/HomeOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import './errors.css';

export interface ErrorPageProps {
  /** HTTP-like status; default 500. */
  status?: number;
  /** Shown as the title; 'Error' when empty. A 404 always reads 'This page could not be found'. */
  message?: string;
  /** Technical details, shown folded. */
  details?: string;
}

export const NOT_FOUND_TITLE = 'This page could not be found';

/** The generic error page: title is the message or 'Error', status default 500; 404 variant. */
export function ErrorPage({ status = 500, message, details }: ErrorPageProps) {
  const notFound = status === 404;
  const title = notFound ? NOT_FOUND_TITLE : message?.trim() || 'Error';
  const hint = notFound
    ? 'The link may be broken, or the page may have moved.'
    : 'Something went wrong on our side. Reloading the page often helps; if it keeps happening, write to support@knack.example.';
  return (
    <section className="kn-error" role="alert" aria-labelledby="kn-error-title">
      <div className="kn-error__card">
        <p className="kn-error__status" aria-label={`Status ${status}`}>
          {status}
        </p>
        <h1 id="kn-error-title" className="kn-error__title">
          {title}
        </h1>
        <p className="kn-error__hint">{hint}</p>
        <div className="kn-error__actions">
          <ButtonLink kind="primary" size="large" href="/" icon={<HomeOutlined />}>
            Back to the home page
          </ButtonLink>
          {notFound ? null : (
            <Button size="large" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
              Reload
            </Button>
          )}
        </div>
        {details ? (
          <details className="kn-error__details">
            <summary>Details</summary>
            <pre>{details}</pre>
          </details>
        ) : null}
      </div>
    </section>
  );
}
