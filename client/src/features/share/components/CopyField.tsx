import { useId } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import { copyText } from '../../../components/copyText';

export interface CopyFieldProps {
  label: string;
  value: string;
  /** The toast's label: '{label} copied.'; without one, 'URL copied.'. */
  copiedLabel?: string;
  /** A few lines (the embed snippet) instead of one. */
  multiline?: boolean;
}

/** A read-only value with a Copy button; a click in the field selects it all. */
export function CopyField({ label, value, copiedLabel, multiline }: CopyFieldProps) {
  const id = useId();
  const select = (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => event.currentTarget.select();
  const copy = (
    <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(value, copiedLabel)}>
      Copy
    </Button>
  );
  return (
    <div className="kn-share__field">
      <label className="kn-share__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <>
          <Input.TextArea id={id} value={value} readOnly autoSize={{ minRows: 3, maxRows: 5 }} onFocus={select} className="kn-share__code" />
          <div className="kn-share__actions">{copy}</div>
        </>
      ) : (
        <Space.Compact block>
          <Input id={id} value={value} readOnly onFocus={select} />
          {copy}
        </Space.Compact>
      )}
    </div>
  );
}
