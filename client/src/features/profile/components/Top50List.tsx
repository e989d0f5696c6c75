import EyeInvisibleOutlined from '@ant-design/icons/es/icons/EyeInvisibleOutlined';
import HeartOutlined from '@ant-design/icons/es/icons/HeartOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { compactCount, formatDuration } from '../../../components/format';
import { HIDDEN_FROM_OTHERS, shownCount, type Content } from '../../../lib/content';

/** A song's reactions, unless its owner hides them (the owner and admins see them marked). */
function Reactions({ song }: { song: Content }) {
  const shown = shownCount(song);
  if (!shown) return null;
  const note = shown.hiddenFromOthers ? `, ${HIDDEN_FROM_OTHERS}` : '';
  return (
    <span className="kn-top50__reactions" title={`${shown.count} reactions${note}`}>
      {shown.hiddenFromOthers ? <EyeInvisibleOutlined aria-hidden /> : <HeartOutlined aria-hidden />} {compactCount(shown.count)}
      <span className="kn-visually-hidden"> reactions{note}</span>
    </span>
  );
}

/**
 * The chart's rows: rank, cover, title (opens the song in the detail modal), sub-tag, length, who entered it when it
 * is not the artist's own, and reactions.
 */
export function Top50List({ songs, artistId, onOpen }: { songs: Content[]; artistId: string; onOpen: (content: Content) => void }) {
  return (
    <ol className="kn-card-list kn-top50__list" aria-label="Top 50 songs">
      {songs.map((song, index) => (
        <li key={song.id} className="kn-top50__row">
          <span className="kn-top50__rank" aria-label={`Rank ${index + 1}`}>
            {index + 1}
          </span>
          <img className="kn-top50__cover" src={mediaUrl(song.thumbPath || song.mthumbPath)} alt="" width={56} height={56} loading="lazy" />
          <span className="kn-top50__text">
            <button type="button" className="kn-top50__title" onClick={() => onOpen(song)}>
              {song.title}
            </button>
            <span className="kn-top50__meta">
              {song.subTag}
              {song.duration ? ` · ${formatDuration(song.duration)}` : ''}
              {song.ownerId !== artistId ? ` · by ${song.ownerName || song.ownerUsername}` : ''}
            </span>
          </span>
          <Reactions song={song} />
        </li>
      ))}
    </ol>
  );
}
