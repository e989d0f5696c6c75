import { useId } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { copyText } from '../../../components/copyText';

/** The piece's share link, `{origin}{link}`, read-only with a Copy button (spec §2, §8). */
export function ShareLink({ link }: { link: string }) {
  const id = useId();
  const url = `${window.location.origin}${link}`;
  return (
    <div className="kn-share-link">
      <label className="kn-share-link__label" htmlFor={id}>
        Share link
      </label>
      <Space.Compact block>
        <Input id={id} value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(url)}>
          Copy
        </Button>
      </Space.Compact>
    </div>
  );
}
