/**
 * A member's own settings, group by group, each saved on its own. Today: where they are from (country, state or
 * region, city) and their time zone, personal details and mail choices, and their social profiles. The country and region lists come from country-region-data (ISO 3166-1
 * countries with their ISO 3166-2 regions, MIT); time zones are the IANA zones the runtime knows.
 */
import countryRegionData from 'country-region-data/data.json';
import { Types } from 'mongoose';
import { badRequest, notFound } from '../../lib/errors';
import type { AuthContext } from '../../lib/auth-context';
import { requireSelfOrAdmin } from '../../lib/permissions';
import { extensionIdOf } from './users.keys';
import { UserExtModel, UserModel, type UserDoc, type UserExtDoc } from './users.model';

export const SETTINGS_MESSAGES = {
  noMember: 'This member does not exist.',
  country: 'Choose a country from the list.',
  noCountry: 'There is no such country.',
  state: 'Choose a state or region of the chosen country from the list.',
  stateWithoutCountry: 'Choose a country first.',
  timezone: 'Choose a time zone from the list.',
  facebook: 'Enter your Facebook profile address or username.',
  twitter: 'Enter your X (Twitter) profile address or @handle.',
  linkedin: 'Enter your LinkedIn profile address (linkedin.com/in/…) or its name.',
  instagram: 'Enter your Instagram profile address or username.',
  birthday: 'Choose a birthday in the past (after 1900).',
  bioTooLong: 'A bio can be at most 1,000 characters.',
} as const;

const BIO_MAX_CHARS = 1_000;
const EARLIEST_BIRTHDAY = '1900-01-01';

interface Region {
  code: string | null;
  name: string;
}

const COUNTRIES = new Map(
  (countryRegionData as { countryName: string; countryShortCode: string; regions: { name: string; shortCode?: string }[] }[]).map((country) => [
    country.countryShortCode,
    { name: country.countryName, regions: country.regions.map((region): Region => ({ code: region.shortCode ?? null, name: region.name })) },
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
  requireSelfOrAdmin(caller, id, SETTINGS_MESSAGES.noMember);
  const _id = new Types.ObjectId(id);
  if (!(await UserModel.exists({ _id }))) throw notFound(SETTINGS_MESSAGES.noMember);
  return _id;
}

/** Sets fields of the member's extension, made on first use (a second creation at once saves into the first). */
async function saveExt(userId: Types.ObjectId, fields: Partial<UserExtDoc>): Promise<UserExtDoc> {
  const saved = await UserExtModel.findByIdAndUpdate(await extensionIdOf(userId), { $set: fields }, { new: true }).lean<UserExtDoc>();
  if (!saved) throw notFound(SETTINGS_MESSAGES.noMember);
  return saved;
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
    const region = country.regions.find(
      (candidate) => candidate.name.toLowerCase() === state.toLowerCase() || (candidate.code !== null && candidate.code === state),
    );
    if (!region) throw invalid('state', SETTINGS_MESSAGES.state);
    stateName = region.name;
  }
  if (request.timezone && !TIME_ZONES.has(request.timezone)) throw invalid('timezone', SETTINGS_MESSAGES.timezone);
  return saveExt(userId, { country: request.country, state: stateName, city: request.city.trim(), timezone: request.timezone });
}

type SocialSite = 'facebook' | 'twitter' | 'linkedin' | 'instagram';
export type SocialLinks = Record<SocialSite, string>;

/**
 * Per site: the hosts its profile addresses use, the name rule of a profile there, and the canonical address made
 * from the name. A profile is given as its address (with or without https://, www. or m.) or as the name alone.
 */
const SITES: Record<SocialSite, { hosts: string[]; prefix: string; name: RegExp; address: (name: string) => string }> = {
  facebook: { hosts: ['facebook.com', 'fb.com'], prefix: '', name: /^[A-Za-z0-9.]{5,50}$/, address: (name) => `https://www.facebook.com/${name}` },
  twitter: { hosts: ['x.com', 'twitter.com'], prefix: '', name: /^[A-Za-z0-9_]{1,15}$/, address: (name) => `https://x.com/${name}` },
  linkedin: { hosts: ['linkedin.com'], prefix: 'in/', name: /^[A-Za-z0-9-]{3,100}$/, address: (name) => `https://www.linkedin.com/in/${name}` },
  instagram: { hosts: ['instagram.com'], prefix: '', name: /^[A-Za-z0-9._]{1,30}$/, address: (name) => `https://www.instagram.com/${name}` },
};

/** The profile's canonical address, '' for none, or null when the text is not a profile on that site. */
export function socialAddress(site: SocialSite, raw: string): string | null {
  const text = raw.trim();
  if (!text) return '';
  const { hosts, prefix, name, address } = SITES[site];
  let candidate = text.replace(/^@/, '');
  const asUrl = /^(https?:\/\/)?(www\.|m\.|mobile\.)?([a-z.]+)\/(.+)$/i.exec(text);
  if (asUrl) {
    if (!hosts.includes(asUrl[3]!.toLowerCase())) return null;
    const path = asUrl[4]!.replace(/[?#].*$/, '').replace(/\/+$/, '');
    if (!path.startsWith(prefix)) return null;
    candidate = path.slice(prefix.length);
  }
  return name.test(candidate) ? address(candidate) : null;
}

export async function updateSocial(caller: AuthContext, id: string, request: SocialLinks): Promise<SocialLinks> {
  const userId = await ownMember(caller, id);
  const social = {} as SocialLinks;
  for (const site of Object.keys(SITES) as SocialSite[]) {
    const kept = socialAddress(site, request[site]);
    if (kept === null) throw invalid(site, SETTINGS_MESSAGES[site]);
    social[site] = kept;
  }
  await UserModel.updateOne({ _id: userId }, { $set: { social } });
  return social;
}

/**
 * The mails a member can stop one by one (from the settings, or with one click from the mail itself), by the account
 * field that keeps each choice.
 */
export const MAIL_CHOICE_FIELDS = {
  digest: 'willReceiveDigest',
  statements: 'willReceiveStatements',
  payoutNotices: 'willReceivePayoutNotices',
} as const;
export type MailChoice = keyof typeof MAIL_CHOICE_FIELDS;

/** Turns one kind of mail on or off for a member; false when there is no such member. */
export async function setMailChoice(userId: string, choice: MailChoice, on: boolean): Promise<boolean> {
  if (!Types.ObjectId.isValid(userId)) return false;
  const { matchedCount } = await UserModel.updateOne({ _id: new Types.ObjectId(userId) }, { $set: { [MAIL_CHOICE_FIELDS[choice]]: on } });
  return matchedCount > 0;
}

export interface PersonalRequest {
  sex: 'M' | 'W' | null;
  birthday: string | null;
  bio: string;
  willReceiveNews: boolean;
  willReceivePromotes: boolean;
  /** Left as they are when not given. */
  willReceiveDigest?: boolean;
  willReceiveStatements?: boolean;
  willReceivePayoutNotices?: boolean;
}

/** Personal details and mail choices. Answers the account as it is now. */
export async function updatePersonal(caller: AuthContext, id: string, request: PersonalRequest, today = new Date()) {
  const userId = await ownMember(caller, id);
  // A calendar date, compared as text in its ISO form: no time zone can move it.
  const birthday = request.birthday ? new Date(`${request.birthday}T00:00:00Z`) : null;
  // A calendar day that exists (no 30 February), in the past and after 1900.
  const realDay = !birthday || (!Number.isNaN(birthday.getTime()) && birthday.toISOString().slice(0, 10) === request.birthday);
  if (!realDay || (request.birthday && (request.birthday < EARLIEST_BIRTHDAY || request.birthday >= today.toISOString().slice(0, 10)))) {
    throw invalid('birthday', SETTINGS_MESSAGES.birthday);
  }
  const bio = request.bio.trim();
  if ([...bio].length > BIO_MAX_CHARS) throw invalid('bio', SETTINGS_MESSAGES.bioTooLong);
  const fields = {
    sex: request.sex,
    birthday,
    bio,
    willReceiveNews: request.willReceiveNews,
    willReceivePromotes: request.willReceivePromotes,
    ...Object.fromEntries(Object.values(MAIL_CHOICE_FIELDS).flatMap((field) => (request[field] === undefined ? [] : [[field, request[field]]]))),
    updated: new Date(),
  };
  return (await UserModel.findByIdAndUpdate(userId, { $set: fields }, { new: true }).lean<UserDoc>())!;
}
