import { lazy, Suspense, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import Button from 'antd/es/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import { useGetProfileByUsernameQuery } from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { PATHS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { ErrorPage } from '../../../components/errors';
import { selectUser, type User } from '../../auth';
import { ContentGrid } from '../../../components/content/ContentGrid';
import { modalOpened } from '../../../lib/ui';
import { loadProjectsPanel } from '../../projects';
import type { Content, UserCard } from '../../../lib/content';
import { DeleteContentModal } from '../components/DeleteContentModal';
import { OwnerMenu } from '../components/OwnerMenu';
import { ProfileHeader } from '../components/ProfileHeader';
import { ProfileHeaderSkeleton } from '../components/ProfileHeaderSkeleton';
import { TabLinks } from '../components/TabLinks';
import { useCollection, useUploads } from '../hooks/usePieceLists';
import '../components/profile.css';

const KINDS = [
  { key: 'default', label: 'Uploads', to: PATHS.myProfile },
  { key: 'supported', label: 'Collection', to: PATHS.collection },
  { key: 'projects', label: 'Projects', to: PATHS.ownProjects },
];

const ProjectsPanel = lazy(loadProjectsPanel);

/** The header's card: the profile call's counts, with the photo, header and names as the session has them now. */
function ownCard(user: User, card: UserCard | undefined): UserCard | undefined {
  if (!card) return undefined;
  const { image, headerImage, fullName, bio } = user;
  return { ...card, user: { ...card.user, image, headerImage, fullName, bio } };
}

/** Who may see a piece besides everyone: a badge for the owner's own lists. */
function visibilityBadge(content: Pick<Content, 'setting'>): 'Private' | 'Followers' | null {
  if (content.setting.private) return 'Private';
  if (content.setting.followers && !content.setting.public) return 'Followers';
  return null;
}

function OwnPieceExtra({ content, onDelete }: { content: Content; onDelete: (content: Content) => void }) {
  const badge = visibilityBadge(content);
  return (
    <>
      {badge ? <span className="kn-badge">{badge}</span> : null}
      <OwnerMenu content={content} onDelete={onDelete} />
    </>
  );
}

/**
 * The own profile, `/profile/{kind?}`: `default` the member's uploads with the private ones
 * (badged) and an owner menu to delete, `supported` the collection, `projects` the member's projects. The header changes the photo and the
 * header image; Upload opens the upload modal.
 */
export default function OwnProfilePage() {
  const { kind = 'default' } = useParams();
  const dispatch = useAppDispatch();
  // The route guard lets only members with a stored account in.
  const user = useAppSelector(selectUser)!;
  const collectionShown = kind === 'supported';
  const profile = useGetProfileByUsernameQuery({ path: { username: user.username } });
  const uploads = useUploads(kind === 'default' ? user.username : undefined);
  const collection = useCollection(collectionShown ? user.id : undefined);
  const [deleting, setDeleting] = useState<Content | null>(null);

  if (!KINDS.some((item) => item.key === kind)) return <Navigate to={PATHS.myProfile} replace />;
  const failure = profile.error as CachedError | undefined;
  if (failure && !profile.currentData) return <ErrorPage status={failure.status || 500} message={failure.message} />;
  const card = ownCard(user, profile.currentData);
  const upload = () => dispatch(modalOpened('upload'));
  return (
    <div className="kn-profile">
      {card ? (
        <ProfileHeader
          card={card}
          onChangePhoto={() => dispatch(modalOpened('profile-photo'))}
          onChangeHeader={() => dispatch(modalOpened('header-image'))}
          actions={
            <Button type="primary" icon={<CloudUploadOutlined aria-hidden />} onClick={upload}>
              Upload
            </Button>
          }
        />
      ) : (
        <ProfileHeaderSkeleton />
      )}
      <section className="kn-profile__uploads" aria-label={collectionShown ? 'Your collection' : kind === 'projects' ? 'Your projects' : 'Your uploads'}>
        <div className="kn-profile__bar">
          <TabLinks label="Your pieces" items={KINDS} active={kind} />
        </div>
        {kind === 'projects' ? (
          <Suspense fallback={null}>
            <ProjectsPanel userId={user.id} own name={user.fullName} />
          </Suspense>
        ) : collectionShown ? (
          <ContentGrid {...collection} label="Your collection" empty="The pieces you support (you paid their listing fee) show here." />
        ) : (
          <ContentGrid
            {...uploads}
            label="Your uploads"
            cardExtra={(content) => <OwnPieceExtra content={content} onDelete={setDeleting} />}
            empty={
              <>
                You have not uploaded anything yet.{' '}
                <Button type="link" onClick={upload}>
                  Upload your first piece
                </Button>
              </>
            }
          />
        )}
      </section>
      <DeleteContentModal content={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
