/** The header's shape while the profile loads. */
export function ProfileHeaderSkeleton() {
  return (
    <div className="kn-profile-head kn-profile-head--loading" aria-busy="true" aria-label="Loading the profile">
      <div className="kn-profile-head__banner" />
      <div className="kn-profile-head__body">
        <span className="kn-avatar kn-profile-head__avatar kn-skeleton" style={{ width: 112, height: 112 }} />
        <div className="kn-profile-head__text">
          <span className="kn-skeleton kn-skeleton--line" style={{ width: 220, height: 26 }} />
          <span className="kn-skeleton kn-skeleton--line" style={{ width: 140 }} />
        </div>
      </div>
    </div>
  );
}
