import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import './input.css';

const classOf = (invalid: boolean | undefined, extra?: string) => ['kn-input', invalid ? 'kn-input--invalid' : '', extra ?? ''].filter(Boolean).join(' ');

/**
 * Text fields drawn like the theme's antd inputs (same border, corners, height and focus ring), for the screens that
 * draw without antd (the page frame, the content detail a shared link opens), as components/button does for buttons.
 * `aria-invalid` also draws the field in the error colour.
 */
export const TextInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function TextInput({ className, ...rest }, ref) {
  return <input ref={ref} className={classOf(rest['aria-invalid'] === true, className)} {...rest} />;
});

/** A text area that grows with its text (between its `rows` and about six lines), then scrolls. */
export const TextArea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextArea({ className, rows = 2, ...rest }, ref) {
  return <textarea ref={ref} rows={rows} className={classOf(rest['aria-invalid'] === true, `kn-input--area ${className ?? ''}`)} {...rest} />;
});

/** Fields and buttons in one row with their borders joined (a link with its Copy and Share buttons). */
export const JOINED_ROW = 'kn-joined-row';
