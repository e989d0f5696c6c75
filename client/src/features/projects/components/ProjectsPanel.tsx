import { useState } from 'react';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import CaretRightOutlined from '@ant-design/icons/es/icons/CaretRightOutlined';
import PlusOutlined from '@ant-design/icons/es/icons/PlusOutlined';
import { useDeleteProjectMutation, useGetProjectContentsQuery, useGetProjectsOfUserQuery } from '../../../api/generated/endpoints';
import type { GetProjectsOfUserResult } from '../../../api/generated/operations';
import { mediaUrl } from '../../../api/mediaUrl';
import { useAppDispatch } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { EmptyState } from '../../../components/content/ContentGrid';
import { notify } from '../../../components/notify';
import { detailOpened } from '../../../lib/contentEvents';
import { usePlayerControls } from '../../player';
import './projects.css';

type Project = GetProjectsOfUserResult['projects'][number];

const pieces = (count: number) => `${count} ${count === 1 ? 'piece' : 'pieces'}`;

/** One project opened: its pieces the viewer may see, each opening in the detail modal, and Play all through the bar. */
function ProjectView({ project, onBack }: { project: Project; onBack: () => void }) {
  const dispatch = useAppDispatch();
  const { playTrack } = usePlayerControls();
  const answer = useGetProjectContentsQuery({ path: { id: project.id } });
  const contents = answer.currentData?.contents ?? [];
  const songs = contents.filter((piece) => piece.isAudio);
  return (
    <section className="kn-project" aria-labelledby="kn-project-title">
      <div className="kn-project__bar">
        <Button onClick={onBack}>Back to projects</Button>
        <h3 id="kn-project-title" className="kn-project__title">
          {project.projectName}
        </h3>
        <Button type="primary" icon={<CaretRightOutlined aria-hidden />} disabled={!songs.length} onClick={() => songs[0] && playTrack(songs[0], songs)}>
          Play all
        </Button>
      </div>
      {!answer.currentData && !answer.isError ? (
        <div className="kn-project__loading kn-skeleton" role="status" aria-busy="true" aria-label="Loading the project" />
      ) : contents.length ? (
        <ol className="kn-card-list" aria-label={`Pieces of ${project.projectName}`}>
          {contents.map((piece) => (
            <li key={piece.id} className="kn-project__row">
              <img className="kn-project__cover" src={mediaUrl(piece.thumbPath)} alt="" width={48} height={48} loading="lazy" />
              <button type="button" className="kn-project__piece" onClick={() => dispatch(detailOpened({ content: piece, siblings: contents }))}>
                {piece.title}
              </button>
              <span className="kn-project__meta">{piece.isAudio ? 'Song' : piece.tags[0]?.name}</span>
            </li>
          ))}
        </ol>
      ) : (
        <EmptyState>No pieces in this project yet.</EmptyState>
      )}
    </section>
  );
}

/**
 * A member's projects (a profile's Projects tab): each opens as a playable list. On the own profile, 'New project'
 * opens the project modal, and a project is removed by double click (as the spec says) or its Remove button, both
 * asking to confirm; its pieces stay published. A project made, filled or removed loads the list again (the
 * cache's invalidation).
 */
export default function ProjectsPanel({ userId, own, name }: { userId: string; own: boolean; name: string }) {
  const dispatch = useAppDispatch();
  const list = useGetProjectsOfUserQuery({ path: { userId } });
  const [removeProject, removal] = useDeleteProjectMutation();
  const [openId, setOpenId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Project | null>(null);
  const projects = list.currentData?.projects ?? [];
  const opened = projects.find((project) => project.id === openId);

  const remove = async () => {
    if (!removing) return;
    try {
      const { message } = await removeProject({ body: { projectId: removing.id } }).unwrap();
      notify('success', message);
      if (openId === removing.id) setOpenId(null);
      setRemoving(null);
    } catch {
      // The HTTP client has shown the server's message; the question stays open to try again.
    }
  };

  if (opened) return <ProjectView project={opened} onBack={() => setOpenId(null)} />;
  return (
    <section className="kn-projects" aria-label={own ? 'Your projects' : `Projects by ${name}`}>
      {own ? (
        <div className="kn-projects__actions">
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => dispatch(modalOpened('project'))}>
            New project
          </Button>
          {projects.length ? <span className="kn-projects__hint">Double-click a project to remove it.</span> : null}
        </div>
      ) : null}
      {!list.currentData && !list.isError ? (
        <div className="kn-project__loading kn-skeleton" aria-busy="true" aria-label="Loading the projects" />
      ) : projects.length ? (
        <ul className="kn-projects__grid">
          {projects.map((project) => (
            <li key={project.id} className="kn-projects__card" onDoubleClick={own ? () => setRemoving(project) : undefined}>
              {project.coverPath ? (
                <img className="kn-projects__cover" src={mediaUrl(project.coverPath)} alt="" loading="lazy" />
              ) : (
                <span className="kn-projects__cover kn-projects__cover--empty" aria-hidden />
              )}
              <button type="button" className="kn-projects__open" onClick={() => setOpenId(project.id)}>
                {project.projectName}
              </button>
              <span className="kn-projects__meta">{pieces(project.pieceCount)}</span>
              {own ? (
                <Button size="small" danger className="kn-projects__remove" aria-label={`Remove ${project.projectName}`} onClick={() => setRemoving(project)}>
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState>{own ? 'You have no projects yet. Group your pieces into one with New project.' : `${name} has no projects yet.`}</EmptyState>
      )}
      <Modal
        open={Boolean(removing)}
        title="Remove this project?"
        okText="Remove"
        okButtonProps={{ danger: true, loading: removal.isLoading }}
        onOk={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{removing ? `“${removing.projectName}” will be removed. Its pieces stay published.` : null}</p>
      </Modal>
    </section>
  );
}
