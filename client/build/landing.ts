/**
 * What the landing page (`/`) downloads before it shows, read from the build's chunks: the SPA's entry with every
 * chunk it boots from (its static imports, and the dynamic imports of its boot steps), and the landing route's lazy
 * chunk with its own. The build preloads these files (vite.config.ts) and holds their gzipped size to a budget.
 */
import { gzipSync } from 'node:zlib';

/** The fields of a built chunk read here (Rolldown's output chunk has them). */
export interface BuiltChunk {
  fileName: string;
  name: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  code: string;
  /** The modules the chunk holds (absolute paths). */
  moduleIds?: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * `start` and every chunk it imports statically, however deep, each after the chunks it imports. The order matters
 * for their stylesheets: a page's rules must come after those of the components it styles over (a layout's rule
 * hiding a button, say, after the button's own), as Vite links them.
 */
export function withStaticImports(chunks: BuiltChunk[], start: BuiltChunk): BuiltChunk[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const ordered: BuiltChunk[] = [];
  const visit = (chunk: BuiltChunk | undefined) => {
    if (!chunk || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    chunk.imports.forEach((fileName) => visit(byFile.get(fileName)));
    ordered.push(chunk);
  };
  visit(start);
  return ordered;
}

/** The chunk whose own module is `modulePath` (a path ending, such as `/src/features/home/pages/HomePage.tsx`). */
export function chunkOfModule(chunks: BuiltChunk[], modulePath: string): BuiltChunk {
  const chunk = chunks.find((candidate) => candidate.facadeModuleId?.replace(/\\/g, '/').endsWith(modulePath));
  if (!chunk) throw new Error(`No chunk for ${modulePath}`);
  return chunk;
}

/** The landing route's chunk with its static imports (what index.html preloads). */
export const landingRouteChunks = (chunks: BuiltChunk[], landingModule: string) => withStaticImports(chunks, chunkOfModule(chunks, landingModule));

/**
 * What the entry runs before its first render: the entry, the chunks it imports dynamically (its boot steps, which
 * only split the evaluation into tasks), and every chunk these import statically. The dynamic imports inside those
 * chunks (lazy pages, modals) are not followed: they load later, when used.
 */
export function bootChunks(chunks: BuiltChunk[], entry: BuiltChunk): BuiltChunk[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const steps = entry.dynamicImports.map((fileName) => byFile.get(fileName)).filter((chunk) => chunk !== undefined);
  return unique([entry, ...steps].flatMap((start) => withStaticImports(chunks, start)));
}

/** Everything the landing page runs first: the entry `entryName` with its boot chunks, and the landing route with its static imports. */
export function landingScripts(chunks: BuiltChunk[], entryName: string, landingModule: string): BuiltChunk[] {
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === entryName);
  if (!entry) throw new Error(`No entry chunk named ${entryName}`);
  return unique([...bootChunks(chunks, entry), ...landingRouteChunks(chunks, landingModule)]);
}

const unique = (chunks: BuiltChunk[]) => [...new Map(chunks.map((chunk) => [chunk.fileName, chunk])).values()];

/** Bytes once gzipped at the level the server's compression uses by default. */
export const gzippedSize = (code: string) => gzipSync(code, { level: 6 }).length;

/** The fields of a module read while chunking (Rolldown's module info has them). */
export interface ModuleFacts {
  importedIds: string[];
  dynamicallyImportedIds: string[];
}

/**
 * The same set as `landingScripts`, at the level of modules and before chunking: the entry with its static imports,
 * its boot steps (its dynamic imports) with theirs, and the landing route's module with its own. The chunk groups use
 * it to keep the landing page's modules and the rest apart (vite.config.ts): a group merges its small chunks into
 * their nearest neighbour, and a lazy page's module merged into a chunk the landing page loads would cost every visit.
 */
export function landingModules(moduleInfo: (id: string) => ModuleFacts | null, entryId: string, landingModuleId: string): Set<string> {
  return staticModules(moduleInfo, entryId, ...(moduleInfo(entryId)?.dynamicallyImportedIds ?? []), landingModuleId);
}

/** antd's own code (its components, its style runtime), as opposed to its icons. */
const isAntd = (id: string) => /node_modules[\\/](antd|@ant-design[\\/]cssinjs)[\\/]/.test(id);

/** Whether a chunk holds antd's own code. */
const holdsAntd = (chunk: BuiltChunk) => (chunk.moduleIds ?? []).some(isAntd);

/**
 * Whether a module, with what it imports statically however deep, runs antd's code: a chunk that holds it brings antd
 * to every page that loads the chunk. `known` keeps the answers (and breaks import cycles).
 */
export function reachesAntd(moduleInfo: (id: string) => ModuleFacts | null, id: string, known = new Map<string, boolean>()): boolean {
  const answer = known.get(id);
  if (answer !== undefined) return answer;
  known.set(id, false);
  const reaches = isAntd(id) || (moduleInfo(id)?.importedIds ?? []).some((imported) => reachesAntd(moduleInfo, imported, known));
  known.set(id, reaches);
  return reaches;
}

/**
 * Of `modules` (path endings, such as `/src/features/explore/pages/ExplorePage.tsx`), those whose chunk, with every
 * chunk it imports statically, holds antd: each should draw with our own elements and load antd only for a part that
 * needs it, lazily.
 */
export function modulesLoadingAntd(chunks: BuiltChunk[], modules: readonly string[]): string[] {
  return modules.filter((modulePath) => withStaticImports(chunks, chunkOfModule(chunks, modulePath)).some(holdsAntd));
}

/**
 * The modules `startIds` with every module they import statically, however deep (the embeddable player's entry: what
 * its page runs).
 */
export function staticModules(moduleInfo: (id: string) => ModuleFacts | null, ...startIds: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    moduleInfo(id)?.importedIds.forEach(visit);
  };
  startIds.forEach(visit);
  return seen;
}

/**
 * What the page of entry `entryName` loads that comes from node_modules (React, the store, axios, antd...): for the
 * embeddable player, which draws with the DOM alone, nothing.
 */
export function packagesLoadedBy(chunks: BuiltChunk[], entryName: string): string[] {
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === entryName);
  if (!entry) throw new Error(`No entry chunk named ${entryName}`);
  const modules = withStaticImports(chunks, entry).flatMap((chunk) => chunk.moduleIds ?? []);
  return [...new Set(modules.filter((id) => /node_modules[\\/]/.test(id)).map((id) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(id)![1]!))];
}
