/** Shown while a route's code loads: a thin progress bar and a quiet placeholder. */
export function PageLoading() {
  return (
    <div className="kn-page-loading" role="status" aria-label="Loading">
      <span className="kn-page-loading__bar" />
    </div>
  );
}
