import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { formatKnackPricePer } from '../../../lib/formatKnackPrice';
import { useTags } from '../../tags';
import type { TagType } from '../../../lib/tags';
import { TypeIcon } from '../../../components/tags/TypeIcon';
import { shownKnackPrice, UPLOAD_MESSAGES, type MainTagName } from '../upload.rules';
import type { UploadFormKind } from '../upload.types';

const TYPE_OF: Record<MainTagName, TagType> = { Music: 'music', Art: 'art', Photos: 'photos' };

/**
 * The main tag (Music, Art or Photos; only those allowed) and a sub-tag of it, from the tags in the store.
 * One message for both: 'Tags should not be empty'.
 */
export function TagFields({ kind, mains, mainTag, note }: { kind: UploadFormKind; mains: readonly MainTagName[]; mainTag?: string; note?: string }) {
  const { groups, status } = useTags();
  const group = groups.find((candidate) => candidate.main.label === mainTag);
  const subTags = group?.subTags ?? [];
  return (
    <div className="kn-upload__tags">
      <Form.Item name="mainTag" label="Tag" rules={[{ required: true, message: UPLOAD_MESSAGES.tagsRequired }]} extra={note} className="kn-upload__main-tag">
        <Radio.Group optionType="button" buttonStyle="solid" className="kn-tagpick" aria-label="Main tag">
          {mains.map((name) => (
            <Radio.Button key={name} value={name} className={`kn-tagpick__option kn-tagpick__option--${TYPE_OF[name]}`}>
              <TypeIcon type={TYPE_OF[name]} /> {name}
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item
        name="subTag"
        label={mainTag === 'Music' ? 'Genre' : 'Category'}
        dependencies={['mainTag']}
        rules={[
          ({ getFieldValue }) => ({
            // Without a main tag, the main tag's message says it; with one, a sub-tag is needed too.
            validator: (_rule, value?: string) =>
              !getFieldValue('mainTag') || value ? Promise.resolve() : Promise.reject(new Error(UPLOAD_MESSAGES.tagsRequired)),
          }),
        ]}
      >
        <Select
          aria-label={mainTag === 'Music' ? 'Genre' : 'Category'}
          placeholder="Choose one"
          disabled={!mainTag || undefined}
          loading={status === 'loading'}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={status === 'failed' ? 'The tags could not be loaded.' : undefined}
          options={subTags.map((tag) => ({
            value: tag.label,
            label: tag.label,
            price: formatKnackPricePer(shownKnackPrice(kind, tag), tag.type),
          }))}
          optionRender={(option) => (
            <span className="kn-subtag-option">
              <span>{option.data.label}</span>
              <span className="kn-subtag-option__price">{option.data.price}</span>
            </span>
          )}
        />
      </Form.Item>
    </div>
  );
}
