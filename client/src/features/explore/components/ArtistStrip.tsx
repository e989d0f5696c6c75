import { Button } from '../../../components/button';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import { useArtistStrip } from '../hooks/useArtistStrip';
import type { UserCard } from '../../../lib/content';
import { ArtistCard } from '../../../components/content/ArtistCard';

export interface ArtistStripProps {
  /** The artist the feed is filtered by. */
  selectedId?: string;
  /** Chooses an artist; choosing the chosen one again clears the filter. */
  onSelect: (artistId: string | null) => void;
}

/** A row of artists above the feed; choosing one shows only their pieces. */
export function ArtistStrip({ selectedId, onSelect }: ArtistStripProps) {
  const { artists, loading } = useArtistStrip();
  const toggle = (card: UserCard) => onSelect(card.user.id === selectedId ? null : card.user.id);
  const selectedShown = artists.some((card) => card.user.id === selectedId);

  if (!loading && !artists.length && !selectedId) return null;
  return (
    <section className="kn-artists" aria-labelledby="kn-artists-title">
      <div className="kn-artists__head">
        <h2 id="kn-artists-title" className="kn-section-title">
          Artists
        </h2>
        {selectedId ? (
          <Button size="small" kind="text" icon={<CloseOutlined />} onClick={() => onSelect(null)}>
            {selectedShown ? 'Show every artist' : 'Clear the artist filter'}
          </Button>
        ) : null}
      </div>
      {loading ? (
        <div className="kn-artists__row kn-scroll-row" aria-busy="true" aria-label="Loading artists">
          {Array.from({ length: 6 }, (_, index) => (
            <span key={index} className="kn-skeleton kn-artist-skeleton" />
          ))}
        </div>
      ) : (
        <ul className="kn-artists__row kn-scroll-row" aria-label="Filter by artist">
          {artists.map((card) => (
            <li key={card.user.id}>
              <ArtistCard card={card} selected={card.user.id === selectedId} onToggle={toggle} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
