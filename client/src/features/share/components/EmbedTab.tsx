import { useLayoutEffect, useRef, useState } from 'react';
import Checkbox from 'antd/es/checkbox';
import Radio from 'antd/es/radio';
import { DEFAULT_EMBED_MASK, EMBED_OPTIONS, EMBED_SIZES, embedSnippet, embedUrlOf, type EmbedSizeKey, type SharedPiece } from '../share.links';
import { CopyField } from './CopyField';

/**
 * The player as the snippet embeds it, at the chosen size scaled down to the tab's width: the real player page with the
 * chosen options, so what each option does shows here.
 */
function EmbedPreview({ src, width, height, title }: { src: string; width: number; height: number; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  useLayoutEffect(() => {
    const node = box.current;
    if (!node) return;
    setBoxWidth(node.clientWidth);
    const resizes = new ResizeObserver(() => setBoxWidth(node.clientWidth));
    resizes.observe(node);
    return () => resizes.disconnect();
  }, []);
  const scale = boxWidth ? Math.min(1, boxWidth / width) : 1;
  return (
    <div className="kn-share__field">
      <span className="kn-share__label" id="kn-embed-preview">
        Preview
      </span>
      <div ref={box} className="kn-share__preview" style={{ height: Math.round(height * scale) }}>
        <iframe
          src={src}
          title={title}
          width={width}
          height={height}
          aria-describedby="kn-embed-preview"
          style={{ transform: `scale(${scale})` }}
          allow="autoplay; encrypted-media"
        />
      </div>
    </div>
  );
}

/** Embed tab: the option mask as checkboxes (each says what it does), a size, a preview, and the iframe snippet to copy. */
export function EmbedTab({ piece }: { piece: SharedPiece }) {
  const [mask, setMask] = useState(DEFAULT_EMBED_MASK);
  const [size, setSize] = useState<EmbedSizeKey>('medium');
  const origin = window.location.origin;
  const snippet = embedSnippet(origin, piece, mask, size);
  const { width, height } = EMBED_SIZES.find((one) => one.key === size)!;
  return (
    <div className="kn-share__tab">
      <fieldset className="kn-share__group kn-share__options">
        <legend className="kn-share__label">Show</legend>
        {EMBED_OPTIONS.map(({ bit, label, help }) => (
          <div key={bit} className="kn-share__option">
            <Checkbox
              checked={(mask & bit) !== 0}
              aria-describedby={`kn-embed-help-${bit}`}
              onChange={(event) => setMask((m) => (event.target.checked ? m | bit : m & ~bit))}
            >
              {label}
            </Checkbox>
            <span className="kn-share__help" id={`kn-embed-help-${bit}`}>
              {help}
            </span>
          </div>
        ))}
      </fieldset>
      <fieldset className="kn-share__group">
        <legend className="kn-share__label">Size</legend>
        <Radio.Group value={size} onChange={(event) => setSize(event.target.value as EmbedSizeKey)}>
          {EMBED_SIZES.map(({ key, label, width: w, height: h }) => (
            <Radio key={key} value={key}>
              {label} {w}×{h}
            </Radio>
          ))}
        </Radio.Group>
      </fieldset>
      <EmbedPreview src={embedUrlOf(origin, piece, mask)} width={width} height={height} title={`Preview of the player: ${piece.title}`} />
      <CopyField label="Embed code" value={snippet} copiedLabel="Embed code" multiline />
    </div>
  );
}
