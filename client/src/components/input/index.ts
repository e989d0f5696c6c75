export { TextInput, TextArea, JOINED_ROW } from './TextInput';
