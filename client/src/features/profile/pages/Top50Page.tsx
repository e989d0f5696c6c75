import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import Button from 'antd/es/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import { useGetTop50Chart } from '../../../api/generated/hooks';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { ErrorPage } from '../../../components/errors';
import { artistName } from '../../../components/content/ArtistCard';
import { EmptyState } from '../../../components/content/ContentGrid';
import { modalOpened } from '../../../lib/ui';
import { selectUpload } from '../../upload';
import { detailOpened } from '../../../lib/contentEvents';
import { ProfileHeader } from '../components/ProfileHeader';
import { ProfileHeaderSkeleton } from '../components/ProfileHeaderSkeleton';
import { Top50List } from '../components/Top50List';
import { parsePath } from '../../../lib/links';
import '../components/profile.css';

/** Loads `reload` again when a song has just been uploaded (the Top 50 upload modal saved one). */
function useReloadAfterUpload(reload: () => void) {
  const savedId = useAppSelector((state) => selectUpload(state).saved?.id);
  const seen = useRef(savedId);
  useEffect(() => {
    if (savedId && savedId !== seen.current) reload();
    seen.current = savedId;
  }, [savedId, reload]);
}

/**
 * `/{name}-music-top-50` (route `{name}Top50`): the artist's header and their Top 50 chart, up to
 * 50 songs by reactions; 'Upload to Top 50' opens the Top 50 upload modal. A trailing `/{userId}` is
 * accepted and shows the same chart.
 */
export default function Top50Page() {
  const dispatch = useAppDispatch();
  const target = parsePath(useLocation().pathname);
  const name = target?.kind === 'top50' ? target.name : '';
  const chart = useGetTop50Chart({ path: { username: name } }, { enabled: Boolean(name) });
  useReloadAfterUpload(chart.reload);

  if (chart.error) return <ErrorPage status={chart.error.status || 500} message={chart.error.message} />;
  const songs = chart.data?.contents ?? [];
  const artist = chart.data?.artist;
  return (
    <div className="kn-profile kn-top50">
      {artist ? (
        <ProfileHeader
          card={artist}
          eyebrow="Music · Top 50"
          actions={
            <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} onClick={() => dispatch(modalOpened('upload-top50'))}>
              Upload to Top 50
            </Button>
          }
        />
      ) : (
        <ProfileHeaderSkeleton />
      )}
      <section className="kn-top50__chart" aria-labelledby="kn-top50-title">
        <h2 id="kn-top50-title" className="kn-section-title">
          {artist ? `${artistName(artist.user)}’s Top 50` : 'Top 50'}
        </h2>
        {chart.loading && !chart.data ? (
          <div className="kn-top50__loading kn-skeleton" aria-busy="true" aria-label="Loading the chart" />
        ) : songs.length ? (
          <Top50List songs={songs} onOpen={(content) => dispatch(detailOpened({ content, siblings: songs }))} />
        ) : (
          <EmptyState>No songs in this chart yet. Upload one to be the first.</EmptyState>
        )}
      </section>
    </div>
  );
}
