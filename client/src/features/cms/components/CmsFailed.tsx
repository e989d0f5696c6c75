/** The CMS could not answer: the words Knack has always shown for it, and a way to ask again. */
export const CMS_FAILED = 'STRAPI Server Not found';

export function CmsFailed({ retry }: { retry: () => void }) {
  return (
    <p className="kn-cms__failed" role="alert">
      {CMS_FAILED}.{' '}
      <button type="button" className="kn-retry" onClick={retry}>
        Try again
      </button>
    </p>
  );
}
