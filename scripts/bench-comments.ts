/**
 * `npm run bench` (part 5): a piece's comments, `GET /api/v2/comment/get-by-content/{id}`, for a piece with
 * BENCH_COMMENTS (default 10,000) comments by 200 members, against a raw node:http server answering the same
 * JSON, in one run. Goals: page 200 costs at most 1.2 times page 1 (a page is read by key, however deep), and the
 * page a visitor gets (kept ready for a second, lib/public-responses.ts) runs at 35% or more of the raw rate.
 *
 * Measured at BENCH_CONNECTIONS (default 32) for BENCH_SECONDS (default 10) each: page 1 and page 200 as a
 * signed-in member (never kept: every request reads the comments and their authors), page 1 as a visitor, and
 * the raw server. The comments are written straight to the database as the app writes them (numbered
 * `{contentId}-{n}`, the piece's count set). The servers run in a child process and the load in this one.
 * Uses MONGODB_URI, or a throw-away embedded database. BENCH_ONLY=comments runs only this part.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import { Types } from 'mongoose';
import { listen, onMessage, startBenchChild } from './bench-child';
import { signAccessToken } from '../server/lib/access-token';
import { encodePageCursor } from '../server/lib/page-cursor';
import { CommentModel, commentsOfPieceList } from '../server/modules/comments';
import { ContentModel } from '../server/modules/contents';
import { UserModel } from '../server/modules/users';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 10_000);
const AUTHORS = 200;
const PAGE_SIZE = 20;
const DEEP_PAGE = 200;
const MAX_DEEP_RATIO = 1.2;
const MIN_CACHED_RATIO = 0.35;
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const runs = !ONLY || ONLY.includes('comments');

interface Ready {
  appUrl: string;
  rawUrl: string;
  contentId: string;
  token: string;
}

/** Child: the database with the piece and its comments, the app, and the raw server answering page 1's bytes. */
async function serve() {
  const child = await startBenchChild('comments');
  const owner = await UserModel.create({ email: 'owner@bench.example', username: 'bench_owner', firstName: 'Bench', lastName: 'Owner', isActive: true });
  const authors = await UserModel.insertMany(
    Array.from({ length: AUTHORS }, (_, i) => ({
      email: `author${i}@bench.example`,
      username: `author_${i}`,
      firstName: 'Author',
      lastName: String(i),
      fullName: `Author ${i}`,
      isActive: true,
    })),
  );
  const piece = await ContentModel.create({
    ownerId: owner._id,
    ownerUsername: owner.username,
    title: 'Much discussed',
    slug: 'much-discussed',
    description: 'A piece with many comments',
    tags: [{ name: 'Photos' }],
    type: 'photos',
    photoUploadId: new Types.ObjectId(),
    media: { photoKey: 'x.png', thumbKeys: {}, fileSize: 1, fileType: 'image/png' },
    knackRateMicros: 50_000,
    listed: true,
    featureRank: Date.now(),
    commentsCount: COMMENTS,
  });
  const start = Date.now() - COMMENTS * 60_000;
  for (let done = 0; done < COMMENTS; done += 1_000) {
    await CommentModel.collection.insertMany(
      Array.from({ length: Math.min(1_000, COMMENTS - done) }, (_, i) => {
        const n = done + i + 1;
        return {
          _id: `${String(piece._id)}-${n}` as never,
          kind: 'comment',
          contentId: piece._id,
          ownerId: owner._id,
          commentorId: authors[n % AUTHORS]!._id,
          text: `Comment number ${n}: the light in this one is something else.`,
          atSeconds: null,
          sharedCommentId: null,
          at: new Date(start + n * 60_000),
          removedAt: null,
        };
      }),
      { ordered: false },
    );
  }
  const appUrl = await child.startApp();
  const contentId = String(piece._id);
  const body = await new Promise<Buffer>((resolve, reject) => {
    http
      .get(`${appUrl}/api/v2/comment/get-by-content/${contentId}`, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      })
      .on('error', reject);
  });
  const raw = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  const rawUrl = await listen(raw);
  const token = signAccessToken(child.config.auth, { userId: String(authors[0]!._id), tokenVersion: 0 });
  process.send!({ appUrl, rawUrl, contentId, token } satisfies Ready);
  onMessage<string>(async () => {
    raw.close();
    await child.close();
    process.exit(0);
  });
}

type Result = autocannon.Result;

function report(name: string, result: Result): void {
  console.log(
    `  ${name.padEnd(38)} ${String(Math.round(result.requests.average)).padStart(6)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ${result.non2xx} non-2xx`,
  );
}

const load = (url: string, headers: Record<string, string> = {}) => autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });

async function main() {
  const child = fork(__filename, ['--serve']);
  let failed = false;
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    const page = `${ready.appUrl}/api/v2/comment/get-by-content/${ready.contentId}`;
    // Page 200 starts below the comment numbered COMMENTS - 199 pages (the cursor a client would hold there).
    const deep = `${page}?cursor=${encodePageCursor(commentsOfPieceList(ready.contentId), COMMENTS - (DEEP_PAGE - 1) * PAGE_SIZE + 1, ready.contentId)}`;
    const member = { Authorization: `Bearer ${ready.token}` };
    console.log(
      `Comments of one piece: ${COMMENTS.toLocaleString('en-US')} comments by ${AUTHORS} members; ${CONNECTIONS} connections, ${DURATION_S} s per run`,
    );
    const raw = await load(`${ready.rawUrl}/`);
    report('raw node:http, the same JSON', raw);
    const first = await load(page, member);
    report('page 1, signed in (read each time)', first);
    const deepest = await load(deep, member);
    report(`page ${DEEP_PAGE}, signed in (read each time)`, deepest);
    const cached = await load(page);
    report('page 1, visitor (kept for a second)', cached);
    const deepRatio = first.requests.average / deepest.requests.average;
    const cachedRatio = cached.requests.average / raw.requests.average;
    const errors = [raw, first, deepest, cached].reduce((sum, result) => sum + result.non2xx + result.errors, 0);
    const pass = deepRatio <= MAX_DEEP_RATIO && cachedRatio >= MIN_CACHED_RATIO && errors === 0;
    console.log(
      `  page ${DEEP_PAGE} costs ${deepRatio.toFixed(2)}x page 1 (goal <= ${MAX_DEEP_RATIO}); visitor page at ${(cachedRatio * 100).toFixed(0)}% of raw (goal >= ${MIN_CACHED_RATIO * 100}%); ${errors} errors: ${pass ? 'PASS' : 'FAIL'}`,
    );
    failed = !pass;
  } finally {
    child.send('stop');
  }
  if (failed) process.exitCode = 1;
}

if (process.argv.includes('--serve')) void serve();
else if (runs) void main();
