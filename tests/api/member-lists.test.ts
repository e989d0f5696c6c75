/**
 * Member lists (server/lib/member-lists.ts) on the real database, through a list of their own: every id noted is read
 * back once, in the order noted; the recent ones are read from the list's end down and the read stops at the first
 * older note; a removed list names nothing; and the kept state finds a fact left off and writes it back.
 */
import { Types } from 'mongoose';
import { memberListModel, memberLists, type ListedFact } from '../../server/lib/member-lists';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

const NoteModel = memberListModel('TestMemberList', 'test_member_lists');
let facts: ListedFact[] = [];
const lists = memberLists(NoteModel, {
  name: 'test-lists',
  describe: 'A list per member of made-up facts.',
  facts: async function* () {
    yield* facts;
  },
});

const HOUR = 3_600_000;
const member = () => new Types.ObjectId().toHexString();

it('when ids are noted at once and one after another, then each is read back once, in the order noted', async () => {
  const ana = member();
  await lists.note(ana, ['a1', 'a2']);
  await Promise.all(Array.from({ length: 30 }, (_, i) => lists.note(ana, [`b${i}`])));
  await lists.note(ana, ['a1']);
  const ids = await lists.idsOf(ana);
  expect(ids.slice(0, 2)).toEqual(['a1', 'a2']);
  expect(new Set(ids)).toEqual(new Set(['a1', 'a2', ...Array.from({ length: 30 }, (_, i) => `b${i}`)]));
  expect(ids).toHaveLength(32);
  expect(await lists.idsOf(member())).toEqual([]);
});

it('when the recent ids are asked, then they come from the newest notes down, and the read stops at the first window with an older note', async () => {
  const bea = member();
  const now = Date.now();
  // Forty notes an hour apart, the newest last: the last five are within the last five hours.
  for (let i = 0; i < 40; i++) await lists.note(bea, [`n${i}`], new Date(now - (39 - i) * HOUR));
  const reads = jest.spyOn(NoteModel.collection, 'findOne');
  try {
    expect(await lists.idsSince(bea, new Date(now - 4.5 * HOUR))).toEqual(['n39', 'n38', 'n37', 'n36', 'n35']);
    // The end is found by a few reads, then one window of ten notes: not the forty.
    expect(reads.mock.calls.length).toBeLessThan(25);
  } finally {
    reads.mockRestore();
  }
  expect(await lists.idsSince(bea, new Date(now + HOUR))).toEqual([]);
  expect(await lists.idsSince(bea, new Date(now - 100 * HOUR))).toHaveLength(40);
});

it('when a list is removed, then it names nothing, and a note after it is read alone', async () => {
  const cal = member();
  await lists.note(cal, ['c1']);
  await lists.note(cal, ['c2']);
  await lists.remove(cal);
  expect(await lists.idsOf(cal)).toEqual([]);
  expect(await NoteModel.countDocuments({ key: cal })).toBe(0);
  await lists.note(cal, ['c3']);
  expect(await lists.idsOf(cal)).toEqual(['c3']);
});

it('when a fact is on no list, then the check names it, and the rebuild lists every fact under each of its keys', async () => {
  await NoteModel.deleteMany({});
  lists.forget();
  const [dan, eva] = [member(), member()];
  await lists.note(dan, ['f1']);
  facts = [
    { id: 'f1', keys: [dan] },
    { id: 'f2', keys: [dan, eva] },
    { id: 'f3', keys: [] },
  ];
  expect(await lists.state.check()).toEqual({
    checked: 3,
    differences: [`test-lists: f2 is not on the list of ${dan}`, `test-lists: f2 is not on the list of ${eva}`],
  });
  await lists.state.rebuild();
  expect(await lists.state.check()).toEqual({ checked: 3, differences: [] });
  expect(await lists.idsOf(dan)).toEqual(['f1', 'f2']);
  expect(await lists.idsOf(eva)).toEqual(['f2']);
});
