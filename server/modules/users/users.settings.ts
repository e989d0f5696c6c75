/**
 * A member's own settings, group by group, each saved on its own. Today: where they are from (country, state or
 * region, city) and their time zone. The country and region lists come from country-region-data (ISO 3166-1
 * countries with their ISO 3166-2 regions, MIT); time zones are the IANA zones the runtime knows.
 */
import countryRegionData from 'country-region-data/data.json';
import { Types } from 'mongoose';
import { badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/mutex';
import { UserExtModel, UserModel, type UserExtDoc } from './users.model';

export const SETTINGS_MESSAGES = {
  noMember: 'This member does not exist.',
  country: 'Choose a country from the list.',
  noCountry: 'There is no such country.',
  state: 'Choose a state or region of the chosen country from the list.',
  stateWithoutCountry: 'Choose a country first.',
  timezone: 'Choose a time zone from the list.',
} as const;

interface Region {
  code: string;
  name: string;
}

const COUNTRIES = new Map(
  (countryRegionData as { countryName: string; countryShortCode: string; regions: { name: string; shortCode?: string }[] }[]).map((country) => [
    country.countryShortCode,
    { name: country.countryName, regions: country.regions.map((region): Region => ({ code: region.shortCode ?? region.name, name: region.name })) },
  ]),
);
const COUNTRY_LIST = [...COUNTRIES.entries()].map(([code, { name }]) => ({ code, name })).sort((a, b) => a.name.localeCompare(b.name));
const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone'));

export const countries = () => ({ countries: COUNTRY_LIST });

export function regionsOf(country: string): { regions: Region[] } {
  const found = COUNTRIES.get(country);
  if (!found) throw notFound(SETTINGS_MESSAGES.noCountry);
  return { regions: found.regions };
}

/** The member's own settings (or any member's, for an admin); another member's id is 404, so ids cannot be probed. */
async function ownMember(caller: AuthContext, id: string): Promise<Types.ObjectId> {
  if (caller.role !== 'admin' && caller.userId !== id) throw notFound(SETTINGS_MESSAGES.noMember);
  const _id = new Types.ObjectId(id);
  if (!(await UserModel.exists({ _id }))) throw notFound(SETTINGS_MESSAGES.noMember);
  return _id;
}

/** Sets fields of the member's extension, creating it on first use (a second creation at once saves into the first). */
async function saveExt(userId: Types.ObjectId, fields: Partial<UserExtDoc>): Promise<UserExtDoc> {
  const save = () => UserExtModel.findOneAndUpdate({ userId }, { $set: fields }, { upsert: true, new: true }).lean<UserExtDoc>();
  return await save().catch((err: unknown) => {
    if (!isDuplicateKey(err)) throw err;
    return save();
  });
}

const invalid = (path: string, message: string) => badRequest(message, [{ path, message }]);

export async function updateRegional(
  caller: AuthContext,
  id: string,
  request: { country: string | null; state: string; city: string; timezone: string | null },
): Promise<UserExtDoc> {
  const userId = await ownMember(caller, id);
  const country = request.country ? COUNTRIES.get(request.country) : null;
  if (request.country && !country) throw invalid('country', SETTINGS_MESSAGES.country);
  const state = request.state.trim();
  let stateName = '';
  if (state) {
    if (!country) throw invalid('state', SETTINGS_MESSAGES.stateWithoutCountry);
    const region = country.regions.find((candidate) => candidate.name.toLowerCase() === state.toLowerCase() || candidate.code === state);
    if (!region) throw invalid('state', SETTINGS_MESSAGES.state);
    stateName = region.name;
  }
  if (request.timezone && !TIME_ZONES.has(request.timezone)) throw invalid('timezone', SETTINGS_MESSAGES.timezone);
  return saveExt(userId, { country: request.country, state: stateName, city: request.city.trim(), timezone: request.timezone });
}
