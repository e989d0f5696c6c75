import type { Tag, TagGroup } from '../../../lib/tags';
import { typeStyle } from '../../../lib/tagColors';
import { TypeIcon } from '../../../components/tags/TypeIcon';

export interface TagChipsProps {
  groups: TagGroup[];
  loading?: boolean;
  main?: Tag;
  sub?: Tag;
  /** Chooses the tag with this slug; null clears the tag filter. */
  onChoose: (slug: string | null) => void;
}

function Chip({ label, pressed, onClick, tag }: { label: string; pressed: boolean; onClick: () => void; tag?: Tag }) {
  return (
    <button
      type="button"
      className={pressed ? 'kn-chip is-pressed' : 'kn-chip'}
      aria-pressed={pressed}
      onClick={onClick}
      style={tag ? typeStyle(tag.type) : undefined}
    >
      {tag && tag.parentTag === null ? <TypeIcon type={tag.type} /> : null}
      {label}
    </button>
  );
}

/**
 * Music, Art and Photos, and once one is chosen its sub-tags. Choosing the chosen chip again clears it (a
 * sub-tag goes back to its main tag, a main tag to everything).
 */
export function TagChips({ groups, loading = false, main, sub, onChoose }: TagChipsProps) {
  if (loading && !groups.length) {
    return (
      <div className="kn-chips" aria-hidden="true">
        {[72, 56, 72].map((width, index) => (
          <span key={index} className="kn-skeleton kn-chip-skeleton" style={{ width }} />
        ))}
      </div>
    );
  }
  const chosen = groups.find((group) => group.main.id === main?.id);
  return (
    <div className="kn-chips-block">
      <div className="kn-chips" role="group" aria-label="Categories">
        {groups.map((group) => (
          <Chip
            key={group.main.id}
            tag={group.main}
            label={group.main.name}
            pressed={group.main.id === main?.id}
            onClick={() => onChoose(group.main.id === main?.id ? null : group.main.slug)}
          />
        ))}
      </div>
      {chosen && chosen.subTags.length ? (
        <div className="kn-chips kn-chips--sub" role="group" aria-label={`${chosen.main.name} sub-tags`} style={typeStyle(chosen.type)}>
          {chosen.subTags.map((tag) => (
            <Chip
              key={tag.id}
              tag={tag}
              label={tag.name}
              pressed={tag.id === sub?.id}
              onClick={() => onChoose(tag.id === sub?.id ? chosen.main.slug : tag.slug)}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
