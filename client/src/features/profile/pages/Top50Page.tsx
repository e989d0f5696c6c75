import { useLocation } from 'react-router-dom';
import Button from 'antd/es/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import { useGetTop50ChartQuery } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { useAppDispatch } from '../../../lib/storeHooks';
import { ErrorPage } from '../../../components/errors';
import { artistName } from '../../../components/content/ArtistCard';
import { EmptyState } from '../../../components/content/ContentGrid';
import { modalOpened } from '../../../lib/ui';
import { detailOpened } from '../../../lib/contentEvents';
import { ProfileHeader } from '../components/ProfileHeader';
import { ProfileHeaderSkeleton } from '../components/ProfileHeaderSkeleton';
import { Top50List } from '../components/Top50List';
import { parsePath } from '../../../lib/links';
import '../components/profile.css';

/**
 * `/{name}-music-top-50` (route `{name}Top50`): the artist's header and their Top 50 chart, up to
 * 50 songs by reactions; 'Upload to Top 50' opens the Top 50 upload modal. A trailing `/{userId}` is
 * accepted and shows the same chart.
 */
export default function Top50Page() {
  const dispatch = useAppDispatch();
  const target = parsePath(useLocation().pathname);
  const name = target?.kind === 'top50' ? target.name : '';
  // A song saved from the Top 50 upload modal loads the chart again (the cache's invalidation).
  const chart = useGetTop50ChartQuery({ path: { username: name } }, { skip: !name });

  const failure = chart.error as CachedError | undefined;
  if (failure) return <ErrorPage status={failure.status || 500} message={failure.message} />;
  const songs = chart.currentData?.contents ?? [];
  const artist = chart.currentData?.artist;
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
        {!chart.currentData ? (
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
