import { saveFile } from './saveFile';

/** Hands `value` to the browser as a JSON file to save, named `filename`. */
export function saveJsonFile(value: unknown, filename: string): void {
  saveFile(JSON.stringify(value, null, 2), filename, 'application/json');
}
