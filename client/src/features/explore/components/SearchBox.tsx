import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import SearchOutlined from '@ant-design/icons/es/icons/SearchOutlined';
import { PATHS } from '../../../lib/constants';
import { mediaUrl } from '../../../api/mediaUrl';
import { displayUsername } from '../../../lib/userNames';
import { formatKnackPrice, knackUnit } from '../../../lib/formatKnackPrice';
import { typeStyle } from '../../../lib/tagColors';
import type { TitleSuggestion } from '../explore.types';
import { useTitleSuggestions } from '../hooks/useTitleSuggestions';
import { QUERY_MAX_LENGTH, SEARCH_BLUR_DELAY_MS } from '../search';
import './search-box.css';

export interface SearchBoxProps {
  /** Phones: a search button that opens the box over the top bar. */
  compact?: boolean;
}

/** Keeps the focus in the box when an entry of the popup is pressed. */
const keepFocus = (event: { preventDefault: () => void }) => event.preventDefault();

function SuggestionRow({ suggestion }: { suggestion: TitleSuggestion }) {
  return (
    <>
      <img className="kn-search__thumb" src={mediaUrl(suggestion.thumbPath)} alt="" width={40} height={40} loading="lazy" decoding="async" />
      <span className="kn-search__text">
        <span className="kn-search__title">{suggestion.title}</span>
        <span className="kn-search__owner">{displayUsername(suggestion.ownerName || suggestion.ownerUsername)}</span>
      </span>
      <span
        className="kn-type-pill kn-search__price"
        style={typeStyle(suggestion.type)}
        title={`Every ${knackUnit(suggestion.type)} earns ${formatKnackPrice(suggestion.knackPrice)}`}
      >
        {formatKnackPrice(suggestion.knackPrice)}
      </span>
    </>
  );
}

/**
 * The top navigation's search: title suggestions with their knack price as one types (at most 7),
 * chosen with the mouse or the arrow keys and Enter; choosing one clears the box and opens the piece.
 * Enter without a chosen suggestion shows every result (/search/{query}). Escape closes the suggestions;
 * they also close 400 ms after the box loses focus. An ARIA combobox with a listbox popup.
 */
export function SearchBox({ compact = false }: SearchBoxProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const inputRef = useRef<HTMLInputElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [expanded, setExpanded] = useState(false);
  const { items, loading } = useTitleSuggestions(text);
  const query = text.trim();
  const popupShown = open && query.length > 0;
  const listShown = popupShown && items.length > 0;

  useEffect(() => setActive(-1), [items]);
  useEffect(() => () => clearTimeout(closeTimer.current), []);
  useEffect(() => {
    if (compact && expanded) inputRef.current?.focus();
  }, [compact, expanded]);
  // Another page: the popup (and the phone overlay) close.
  useEffect(() => {
    setOpen(false);
    setExpanded(false);
  }, [pathname]);

  const close = () => {
    setOpen(false);
    setActive(-1);
    setExpanded(false);
  };
  const choose = (suggestion: TitleSuggestion) => {
    setText('');
    close();
    void navigate(suggestion.link);
  };
  const searchAll = () => {
    if (!query) return;
    close();
    inputRef.current?.blur();
    void navigate(PATHS.search(query));
  };
  const step = (by: 1 | -1) => {
    setOpen(true);
    if (!items.length) return;
    setActive((current) => (current === -1 && by === -1 ? items.length - 1 : (current + by + items.length) % items.length));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        step(1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        step(-1);
        break;
      case 'Enter': {
        event.preventDefault();
        const chosen = listShown && active >= 0 ? items[active] : undefined;
        if (chosen) choose(chosen);
        else searchAll();
        break;
      }
      case 'Escape':
        event.preventDefault();
        if (popupShown) {
          setOpen(false);
          setActive(-1);
        } else if (text) setText('');
        else close();
        break;
      default:
        break;
    }
  };
  const onFocus = () => {
    clearTimeout(closeTimer.current);
    if (query) setOpen(true);
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (event.currentTarget.contains(event.relatedTarget)) return;
    clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(close, SEARCH_BLUR_DELAY_MS);
  };

  if (compact && !expanded) {
    return (
      <button type="button" className="kn-search-toggle" aria-label="Search" onClick={() => setExpanded(true)}>
        <SearchOutlined aria-hidden />
      </button>
    );
  }

  return (
    <div className={compact ? 'kn-search kn-search--overlay' : 'kn-search'} role="search" onFocus={onFocus} onBlur={onBlur}>
      <div className="kn-search__field">
        <SearchOutlined className="kn-search__icon" aria-hidden />
        <input
          ref={inputRef}
          className="kn-search__input"
          type="search"
          role="combobox"
          aria-label="Search titles, artists and tags"
          aria-autocomplete="list"
          aria-expanded={listShown}
          aria-controls={listId}
          aria-activedescendant={listShown && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={QUERY_MAX_LENGTH}
          placeholder="Search music, art, photos"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
        {compact ? (
          <button type="button" className="kn-search__close" aria-label="Close search" onMouseDown={keepFocus} onClick={close}>
            <CloseOutlined aria-hidden />
          </button>
        ) : null}
      </div>
      <div className="kn-search__popup" hidden={!popupShown}>
        <ul id={listId} role="listbox" aria-label="Suggestions" className="kn-search__list">
          {listShown
            ? items.map((suggestion, index) => (
                <li
                  key={suggestion.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  className={index === active ? 'kn-search__option is-active' : 'kn-search__option'}
                  onMouseDown={keepFocus}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => choose(suggestion)}
                >
                  <SuggestionRow suggestion={suggestion} />
                </li>
              ))
            : null}
        </ul>
        {!items.length ? (
          <p className="kn-search__note" role="status">
            {loading ? 'Searching…' : `No titles start with “${query}”.`}
          </p>
        ) : null}
        <button type="button" className="kn-search__all" onMouseDown={keepFocus} onClick={searchAll} tabIndex={-1}>
          <SearchOutlined aria-hidden /> See all results for “{query}”
        </button>
      </div>
    </div>
  );
}
