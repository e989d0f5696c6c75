import { existsSync } from 'node:fs';
import path from 'node:path';

/** The project root: the nearest folder above this file that holds openapi.yaml (works from server/ and dist/server/). */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'openapi.yaml'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`openapi.yaml not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot(__dirname);
export const OPENAPI_PATH = path.join(PROJECT_ROOT, 'openapi.yaml');
