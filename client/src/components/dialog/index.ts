export { Dialog, DIALOG_CLOSE_MS, type DialogProps } from './Dialog';
