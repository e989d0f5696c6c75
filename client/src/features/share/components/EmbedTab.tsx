import { useState } from 'react';
import Checkbox from 'antd/es/checkbox';
import Radio from 'antd/es/radio';
import { DEFAULT_EMBED_MASK, EMBED_OPTIONS, EMBED_SIZES, embedSnippet, type EmbedSizeKey, type SharedPiece } from '../share.links';
import { CopyField } from './CopyField';

/** Embed tab: the option mask as checkboxes, a size, and the iframe snippet to copy. */
export function EmbedTab({ piece }: { piece: SharedPiece }) {
  const [mask, setMask] = useState(DEFAULT_EMBED_MASK);
  const [size, setSize] = useState<EmbedSizeKey>('medium');
  const snippet = embedSnippet(window.location.origin, piece, mask, size);
  return (
    <div className="kn-share__tab">
      <fieldset className="kn-share__group">
        <legend className="kn-share__label">Show</legend>
        {EMBED_OPTIONS.map(({ bit, label }) => (
          <Checkbox key={bit} checked={(mask & bit) !== 0} onChange={(event) => setMask((m) => (event.target.checked ? m | bit : m & ~bit))}>
            {label}
          </Checkbox>
        ))}
      </fieldset>
      <fieldset className="kn-share__group">
        <legend className="kn-share__label">Size</legend>
        <Radio.Group value={size} onChange={(event) => setSize(event.target.value as EmbedSizeKey)}>
          {EMBED_SIZES.map(({ key, label, width, height }) => (
            <Radio key={key} value={key}>
              {label} {width}×{height}
            </Radio>
          ))}
        </Radio.Group>
      </fieldset>
      <CopyField label="Embed code" value={snippet} copiedLabel="Embed code" multiline />
    </div>
  );
}
