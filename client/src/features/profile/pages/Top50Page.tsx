import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import Button from 'antd/es/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import { useGetTop50ChartQuery } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
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
 * `/{name}-music-top-50` (route `{name}Top50`): the artist's header and their Top 50 chart, up to 50 songs by
 * reactions (their own and those others entered). 'Upload to Top 50' opens the Top 50 upload modal, for members and
 * visitors alike; the artist also gets 'Upload to my page' (the artist modal). `/{name}-music-top-50/{userId}?token=…`
 * is the link mailed after a visitor's upload: it opens the `{name} register` modal for that waiting account.
 */
export default function Top50Page() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  const target = parsePath(location.pathname);
  const name = target?.kind === 'top50' ? target.name : '';
  const waitingId = target?.kind === 'top50' ? target.sub : undefined;
  const registerToken = new URLSearchParams(location.search).get('token') ?? undefined;
  const user = useAppSelector(selectUser);

  useEffect(() => {
    if (waitingId && registerToken) dispatch(modalOpened({ name: 'artist-register', userId: waitingId, token: registerToken, artistName: name }));
  }, [dispatch, waitingId, registerToken, name]);

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
            <>
              {user?.id === artist.user.id ? (
                <Button
                  icon={<CustomerServiceOutlined aria-hidden />}
                  onClick={() => dispatch(modalOpened({ name: 'upload-artist', userId: artist.user.id, artistName: artistName(artist.user) }))}
                >
                  Upload to my page
                </Button>
              ) : null}
              <Button
                type="primary"
                icon={<CloudUploadOutlined aria-hidden />}
                onClick={() => dispatch(modalOpened({ name: 'upload-top50', userId: artist.user.id, artistName: artistName(artist.user) }))}
              >
                Upload to Top 50
              </Button>
            </>
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
          <Top50List songs={songs} artistId={artist?.user.id ?? ''} onOpen={(content) => dispatch(detailOpened({ content, siblings: songs }))} />
        ) : (
          <EmptyState>No songs in this chart yet. Upload one to be the first.</EmptyState>
        )}
      </section>
    </div>
  );
}
