import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { shallowEqual } from 'react-redux';
import { Link } from 'react-router-dom';
import DeleteOutlined from '@ant-design/icons/es/icons/DeleteOutlined';
import { LIMITS, MESSAGES } from '../../../../../generated/validation';
import { useAddCommentMutation, useDeleteCommentMutation } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { modalOpened } from '../../../lib/ui';
import { formatDuration, formatTimeAgo } from '../../../components/format';
import { notify } from '../../../components/notify';
import { UserAvatar } from '../../../components/UserAvatar';
import { Button } from '../../../components/button';
import { TextArea } from '../../../components/input';
import type { Content } from '../../../lib/content';
import { commentsCounted } from '../../../lib/contentEvents';
import { profilePath } from '../../../lib/links';
import { track } from '../../../lib/track';
import { selectIsAdmin, selectUser } from '../../auth';
import { selectTrackProgress, usePlayerControls } from '../../player';
import { commentBoxRequested } from '../comments.slice';
import { selectFocusRequest } from '../comments.selectors';
import { showCommentAdded, showCommentRemoved, usePieceComments, type PieceComment } from '../hooks/usePieceComments';
import './comments.css';

const characters = (text: string) => [...text].length;

/** The author's avatar: their photo, or the initials of the name shown beside it. */
function avatarOf(comment: PieceComment) {
  const [firstName, ...rest] = comment.commentorName.split(' ');
  return { username: comment.commentorUsername, image: comment.commentorPhoto, firstName, lastName: rest.join(' ') };
}

/**
 * The comment box: a visitor who clicks in it is asked to sign up (and comes back to it signed in). On a song, the
 * comment can carry the time in the track where the member started writing.
 */
function CommentBox({ content }: { content: Content }) {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const [addComment, { isLoading: posting }] = useAddCommentMutation();
  const focus = useAppSelector(selectFocusRequest, shallowEqual);
  const progress = useAppSelector((state) => selectTrackProgress(state, content.id), shallowEqual);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pinnedAt, setPinnedAt] = useState<number | null>(null);
  const [timed, setTimed] = useState(true);
  const box = useRef<HTMLTextAreaElement | null>(null);
  const errorId = useId();

  useEffect(() => {
    if (focus.contentId === content.id && focus.request > 0) box.current?.focus();
  }, [focus.request, focus.contentId, content.id]);

  const onFocus = () => {
    if (!user) {
      box.current?.blur();
      dispatch(modalOpened({ name: 'signup', origin: 'comments', callback: commentBoxRequested({ contentId: content.id }) }));
      return;
    }
    if (content.isAudio && pinnedAt === null && progress && progress.position > 0) setPinnedAt(Math.round(progress.position));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const comment = text.trim();
    if (!comment) return setError(MESSAGES.commentRequired);
    if (characters(comment) > LIMITS.commentMaxChars) return setError(MESSAGES.commentTooLong);
    setError(null);
    if (!user) return;
    const atSeconds = pinnedAt !== null && timed ? pinnedAt : null;
    try {
      const added = await addComment({ body: { comment, userId: user.id, ownerId: content.ownerId, contentId: content.id, atSeconds } }).unwrap();
      dispatch(showCommentAdded(content.id, added));
      dispatch(commentsCounted({ contentId: content.id, commentsCount: added.commentsCount }));
      track('comment', { contentId: content.id });
      // Sent: the box empties for the next one.
      setText('');
      setPinnedAt(null);
    } catch {
      // The one error toast has shown the server's message; the comment stays in the box to send again.
    }
  };

  const count = characters(text);
  return (
    <form className="kn-comments__form" onSubmit={(event) => void submit(event)} noValidate>
      <TextArea
        ref={box}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (error) setError(null);
        }}
        onFocus={onFocus}
        placeholder={user ? 'Write a comment' : 'Sign up to comment'}
        aria-label="Your comment"
        aria-invalid={Boolean(error)}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="kn-comments__error" role="alert">
          {error}
        </p>
      ) : null}
      {user ? (
        <div className="kn-comments__actions">
          {pinnedAt !== null ? (
            <label className="kn-comments__timed">
              <input type="checkbox" checked={timed} onChange={(event) => setTimed(event.target.checked)} /> at {formatDuration(pinnedAt)}
            </label>
          ) : (
            <span />
          )}
          <span className={count > LIMITS.commentMaxChars ? 'kn-comments__count is-over' : 'kn-comments__count'} aria-live="polite">
            {count > LIMITS.commentMaxChars - 200 ? `${count} / ${LIMITS.commentMaxChars}` : ''}
          </span>
          <Button kind="primary" type="submit" loading={posting}>
            Comment
          </Button>
        </div>
      ) : null}
    </form>
  );
}

interface ItemProps {
  comment: PieceComment;
  content: Content;
  /** The songs around the piece, queued when a comment's time starts it. */
  queue: Content[];
  mayRemove: boolean;
}

/** Removes a comment of the piece: a toast with the server's message, and the piece's count follows. */
function useRemoveComment(contentId: string) {
  const dispatch = useAppDispatch();
  const [deleteComment] = useDeleteCommentMutation();
  return async (commentId: string) => {
    try {
      const removed = await deleteComment({ path: { commentId } }).unwrap();
      dispatch(showCommentRemoved(contentId, commentId, removed.commentsCount));
      dispatch(commentsCounted({ contentId, commentsCount: removed.commentsCount }));
      notify('success', removed.message);
    } catch {
      // The one error toast has shown the server's message.
    }
  };
}

function CommentItem({ comment, content, queue, mayRemove }: ItemProps) {
  const remove = useRemoveComment(content.id);
  const controls = usePlayerControls();
  const playing = useAppSelector((state) => selectTrackProgress(state, content.id) !== null);
  const playFrom = (seconds: number) => {
    if (!playing) controls.playTrack(content, queue);
    controls.seek(seconds);
  };
  return (
    <li className="kn-comment">
      <UserAvatar user={avatarOf(comment)} size={36} />
      <div className="kn-comment__body">
        <p className="kn-comment__meta">
          <Link className="kn-comment__name" to={profilePath(comment.commentorUsername)}>
            {comment.commentorName}
          </Link>
          {comment.kind === 'share' ? <span className="kn-comment__kind">shared this</span> : null}
          {comment.atSeconds !== null ? (
            <button
              type="button"
              className="kn-comment__time"
              onClick={() => playFrom(comment.atSeconds!)}
              aria-label={`Play from ${formatDuration(comment.atSeconds)}`}
            >
              at {formatDuration(comment.atSeconds)}
            </button>
          ) : null}
          <time className="kn-comment__when" dateTime={comment.when} title={new Date(comment.when).toLocaleString()}>
            {formatTimeAgo(comment.when)}
          </time>
        </p>
        {/* Plain text, shown as text: React escapes it, and line breaks are kept by CSS. */}
        {comment.description ? <p className="kn-comment__text">{comment.description}</p> : null}
        {comment.sharedComment ? (
          <blockquote className="kn-comment__quote">
            <span className="kn-comment__name">{comment.sharedComment.commentorName}</span> {comment.sharedComment.description}
          </blockquote>
        ) : null}
      </div>
      {mayRemove ? (
        <Button
          className="kn-comment__remove"
          kind="text"
          size="small"
          icon={<DeleteOutlined />}
          aria-label={`Remove the comment of ${comment.commentorName}`}
          onClick={() => void remove(comment.id)}
        />
      ) : null}
    </li>
  );
}

/**
 * A piece's comments in the detail modal: the box (not on one's own piece), then the comments, newest first. A
 * comment's time in a song plays it from there, with `queue` around it.
 */
export default function CommentsPanel({ content, queue }: { content: Content; queue: Content[] }) {
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const comments = usePieceComments(content.id);
  const headingId = useId();

  const items = comments.items;
  const isOwner = user?.id === content.ownerId;
  return (
    <section className="kn-comments" aria-labelledby={headingId}>
      <h3 id={headingId} className="kn-comments__heading">
        Comments{comments.total ? ` (${comments.total})` : ''}
      </h3>
      {isOwner ? null : <CommentBox content={content} />}
      {comments.error ? (
        <p className="kn-comments__empty">
          The comments could not be loaded.{' '}
          <Button kind="text" size="small" onClick={comments.retry}>
            Try again
          </Button>
        </p>
      ) : items.length ? (
        <ol className="kn-comments__list">
          {items.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              content={content}
              queue={queue}
              mayRemove={Boolean(user && (isAdmin || isOwner || comment.commentorId === user.id))}
            />
          ))}
        </ol>
      ) : comments.status === 'ready' ? (
        <p className="kn-comments__empty">{isOwner ? 'No comments yet.' : 'No comments yet. Be the first.'}</p>
      ) : null}
      {comments.hasMore ? (
        <Button className="kn-comments__more" loading={comments.loadingMore} onClick={comments.loadMore}>
          Show more comments
        </Button>
      ) : null}
    </section>
  );
}
