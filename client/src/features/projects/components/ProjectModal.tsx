import { useEffect, useState } from 'react';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Tabs from 'antd/es/tabs';
import {
  useAddToProjectMutation,
  useGetContentsByUsernameInfiniteQuery,
  useGetProjectsOfUserQuery,
  useSaveProjectMutation,
} from '../../../api/generated/endpoints';
import type { CachedError } from '../../../api/cache';
import { MESSAGES } from '../../../../../generated/validation';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalClosed, selectModalProps } from '../../../lib/ui';
import { notify } from '../../../components/notify';
import type { Content } from '../../../lib/content';
import { selectUser } from '../../auth';
import './projects.css';

type Tab = 'add' | 'create';

/** How many of the member's pieces the modal offers when it is not opened on one piece. */
const PIECES_OFFERED = 50;

const NO_PIECES: Content[] = [];

/**
 * The member's projects and, when the modal is not about one piece, their pieces to choose from; read while the
 * modal is open. `projects` is null until the list is in; a list that cannot be read offers none (the modal can
 * still create one).
 */
function useChoices(open: boolean, userId: string, username: string, withPieces: boolean) {
  const quiet = 'the modal offers no choices then, and can still create a project';
  const projects = useGetProjectsOfUserQuery({ path: { userId }, quiet }, { skip: !open || !userId });
  const pieces = useGetContentsByUsernameInfiniteQuery(
    { path: { username }, query: { limit: PIECES_OFFERED }, quiet },
    { skip: !open || !userId || !withPieces },
  );
  return {
    projects: projects.currentData?.projects ?? (projects.isError ? [] : null),
    pieces: pieces.currentData?.pages[0]?.contents ?? NO_PIECES,
  };
}

/**
 * The project modal: 'Add to project' puts a piece in one of the member's projects, 'Create a project' makes one.
 * Opened on a piece (the detail modal's owner menu), it is about that piece; opened from the own profile, the member
 * chooses the pieces. The rules answer the spec's messages before anything is sent (the server checks them too).
 */
export default function ProjectModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const { contentId } = useAppSelector(selectModalProps);
  const { projects, pieces } = useChoices(open, user?.id ?? '', user?.username ?? '', !contentId);
  const [tab, setTab] = useState<Tab>('add');
  const [projectId, setProjectId] = useState<string | undefined>();
  const [pieceId, setPieceId] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [addToProject, adding] = useAddToProjectMutation();
  const [saveProject, creating] = useSaveProjectMutation();
  const saving = adding.isLoading || creating.isLoading;

  useEffect(() => {
    if (!open) return;
    setTab('add');
    setProjectId(undefined);
    setPieceId(undefined);
    setName('');
    setChosen(contentId ? [contentId] : []);
    setProblem(null);
  }, [open, contentId]);

  const close = () => dispatch(modalClosed());
  const send = async (change: { unwrap: () => Promise<{ message: string }> }) => {
    setProblem(null);
    try {
      notify('success', (await change.unwrap()).message);
      close();
    } catch (failure) {
      setProblem((failure as CachedError).message);
    }
  };
  const quiet = 'the modal shows the failure under its fields';

  const add = () => {
    if (!projectId) return setProblem(MESSAGES.projectRequired);
    const piece = contentId ?? pieceId;
    if (!piece) return setProblem('Choose a piece to add.');
    return send(addToProject({ body: { projectId, contentId: piece }, quiet }));
  };
  const create = () => {
    if (!name.trim()) return setProblem(MESSAGES.projectNameRequired);
    return send(saveProject({ body: { userId: user!.id, projectName: name.trim(), contentIds: JSON.stringify(chosen) }, quiet }));
  };

  const pieceOptions = pieces.map((piece) => ({ value: piece.id, label: piece.title }));
  const addPane = (
    <div className="kn-project-modal__pane">
      <label className="kn-project-modal__label" htmlFor="kn-project-select">
        Project
      </label>
      <Select
        id="kn-project-select"
        className="kn-project-modal__field"
        placeholder={projects && !projects.length ? 'No projects yet: create one' : 'Select a project'}
        loading={!projects}
        value={projectId}
        onChange={(value: string) => setProjectId(value)}
        options={(projects ?? []).map((project) => ({ value: project.id, label: project.projectName }))}
      />
      {contentId ? null : (
        <>
          <label className="kn-project-modal__label" htmlFor="kn-project-piece">
            Piece
          </label>
          <Select
            id="kn-project-piece"
            className="kn-project-modal__field"
            placeholder="Select a piece"
            value={pieceId}
            onChange={(value: string) => setPieceId(value)}
            options={pieceOptions}
          />
        </>
      )}
    </div>
  );
  const createPane = (
    <div className="kn-project-modal__pane">
      <label className="kn-project-modal__label" htmlFor="kn-project-name">
        Project name
      </label>
      <Input id="kn-project-name" className="kn-project-modal__field" maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      {contentId || !pieces.length ? null : (
        <fieldset className="kn-project-modal__pieces">
          <legend className="kn-project-modal__label">Pieces</legend>
          <Checkbox.Group value={chosen} onChange={(values) => setChosen(values)} options={pieceOptions} />
        </fieldset>
      )}
    </div>
  );

  return (
    <Modal
      open={open}
      title="Project"
      rootClassName="kn-project-modal"
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close}>
          Cancel
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void (tab === 'add' ? add() : create())}>
          {tab === 'add' ? 'Add' : 'Create'}
        </Button>,
      ]}
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key as Tab);
          setProblem(null);
        }}
        items={[
          { key: 'add', label: 'Add to project', children: addPane },
          { key: 'create', label: 'Create a project', children: createPane },
        ]}
      />
      {problem ? <Alert type="error" showIcon message={problem} role="alert" /> : null}
    </Modal>
  );
}
