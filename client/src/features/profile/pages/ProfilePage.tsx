import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useGetProfileByUsernameQuery } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { ErrorPage } from '../../../components/errors';
import { Button } from '../../../components/button';
import { withAntd } from '../../../components/antd/withAntd';
import { selectUser } from '../../auth';
import { artistName } from '../../../components/content/ArtistCard';
import { ContentGrid, FIRST_ROW } from '../../../components/content/ContentGrid';
import type { TagType } from '../../../lib/tags';
import { ProfileHeader } from '../components/ProfileHeader';
import { FollowButton } from '../../follows';
import { loadProjectsPanel } from '../../projects';
import { ProfileHeaderSkeleton } from '../components/ProfileHeaderSkeleton';
import { TabLinks } from '../components/TabLinks';
import { useLinkedPiece } from '../hooks/useLinkedPiece';
import { useUploads } from '../hooks/usePieceLists';
import { isTagType, parsePath, profilePath } from '../../../lib/links';
import '../components/profile.css';

const TYPE_TABS: { key: TagType | 'all'; label: string }[] = [
  { key: 'all', label: 'All' },
  { key: 'music', label: 'Music' },
  { key: 'art', label: 'Art' },
  { key: 'photos', label: 'Photos' },
];

/** The Projects tab is the profile's address with `?tab=projects` (the path's second part is a content type). */
const PROJECTS_TAB = 'projects';
// The page draws without antd (a visitor's first page, often from a shared link); the projects panel brings it.
const ProjectsPanel = lazy(withAntd(loadProjectsPanel));

/**
 * The public profile, `/{username}` and `/{username}/{type}`: the member's header and their
 * uploads, filtered by type, or their projects (`?tab=projects`). A share link `/{username}-{slug}` is the same page with that piece open in the
 * detail modal over it (closing the modal leaves the profile).
 */
export default function ProfilePage() {
  const { pathname, search, hash } = useLocation();
  const target = parsePath(pathname);
  // The route table only sends profile and share-link paths here.
  const username = target && target.kind !== 'top50' ? target.username : '';
  const type = target && target.kind !== 'top50' && isTagType(target.sub) ? target.sub : undefined;
  const slug = target?.kind === 'content' ? target.slug : undefined;
  const viewer = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const projectsShown = new URLSearchParams(search).get('tab') === PROJECTS_TAB;
  const navigate = useNavigate();
  const profile = useGetProfileByUsernameQuery({ path: { username } }, { skip: !username });
  const uploads = useUploads(username || undefined, type);
  useLinkedPiece(username, slug, uploads, profilePath(username, type));
  // The profile of this address only: never the previous member's while the next one loads.
  const card = profile.currentData;
  // A link with a username the member had before: the address becomes the same page under their name now.
  const currentName = card?.user.username;
  useEffect(() => {
    if (!currentName || currentName === username.toLowerCase()) return;
    const page = slug ? `/${currentName}-${slug}${target?.sub ? `/${target.sub}` : ''}` : profilePath(currentName, type);
    void navigate(`${page}${search}${hash}`, { replace: true });
  }, [currentName, username, slug, type, target?.sub, search, hash, navigate]);

  const failure = profile.error as CachedError | undefined;
  if (failure) return <ErrorPage status={failure.status || 500} message={failure.message} />;
  const own = viewer?.username === username;
  const name = card ? artistName(card.user) : username;
  return (
    <div className="kn-profile">
      {card ? (
        <ProfileHeader
          card={card}
          actions={
            own ? (
              <Button onClick={() => void navigate(PATHS.myProfile)}>Manage your uploads</Button>
            ) : (
              <>
                <FollowButton userId={card.user.id} name={artistName(card.user)} />
                <Button
                  onClick={() =>
                    dispatch(
                      modalOpened({
                        name: 'message',
                        messageMode: 'create',
                        receiverId: card.user.id,
                        receiverName: artistName(card.user),
                        receiverUsername: card.user.username,
                        receiverImage: card.user.image,
                      }),
                    )
                  }
                >
                  Message
                </Button>
              </>
            )
          }
        />
      ) : (
        <ProfileHeaderSkeleton />
      )}
      <section className="kn-profile__uploads" aria-labelledby="kn-profile-uploads">
        <div className="kn-profile__bar">
          <h2 id="kn-profile-uploads" className="kn-section-title">
            {projectsShown ? 'Projects' : 'Uploads'}
          </h2>
          <TabLinks
            label="Content type"
            items={[
              ...TYPE_TABS.map(({ key, label }) => ({ key, label, to: profilePath(username, key === 'all' ? undefined : key) })),
              { key: PROJECTS_TAB, label: 'Projects', to: `${profilePath(username)}?tab=${PROJECTS_TAB}` },
            ]}
            active={projectsShown ? PROJECTS_TAB : (type ?? 'all')}
          />
        </div>
        {projectsShown && card ? (
          <Suspense fallback={null}>
            <ProjectsPanel userId={card.user.id} own={own} name={name} />
          </Suspense>
        ) : (
          <ContentGrid
            {...uploads}
            priorityCards={FIRST_ROW}
            label={`Uploads by ${name}`}
            empty={type ? `No ${type} by ${name} yet.` : `${name} has not uploaded anything yet.`}
          />
        )}
      </section>
    </div>
  );
}
