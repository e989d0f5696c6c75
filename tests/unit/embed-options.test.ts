/**
 * What the embed URL asks of the player: the option mask (Header 1, Footer 2, Slideshow 4, Quintos 8; default 7), and
 * Quintos' queue, the five songs that follow the embedded one in the artist's songs, newest first, wrapping round.
 */
import { DEFAULT_MASK, EMBED_BITS, has, nextFive, readEmbedRequest } from '../../client/src/embed/embed.options';

const ID = '64c0000000000000000000a1';
const songs = (...ids: string[]) => ids.map((id) => ({ id }));

describe('readEmbedRequest', () => {
  it('when the URL names the owner and piece, then the mask is read (7 when left out or not a number), and each bit says its part', () => {
    expect(readEmbedRequest(`?userName=ana&contentId=${ID}&options=12`)).toEqual({ userName: 'ana', contentId: ID, mask: 12 });
    expect(readEmbedRequest(`?userName=ana&contentId=${ID}`)!.mask).toBe(DEFAULT_MASK);
    expect(readEmbedRequest(`?userName=ana&contentId=${ID}&options=x`)!.mask).toBe(7);
    const mask = readEmbedRequest(`?userName=ana&contentId=${ID}&options=12`)!.mask;
    expect([EMBED_BITS.header, EMBED_BITS.footer, EMBED_BITS.slideshow, EMBED_BITS.quintos].map((bit) => has(mask, bit))).toEqual([false, false, true, true]);
    expect(readEmbedRequest('?userName=ana')).toBeNull();
  });
});

describe('nextFive', () => {
  it('when the song is among the artist’s songs, then the five after it, wrapping round to the newest, never itself', () => {
    expect(nextFive(songs('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'c').map((song) => song.id)).toEqual(['d', 'e', 'f', 'g', 'h']);
    expect(nextFive(songs('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'), 'g').map((song) => song.id)).toEqual(['h', 'a', 'b', 'c', 'd']);
    expect(nextFive(songs('a', 'b', 'c'), 'b').map((song) => song.id)).toEqual(['c', 'a']);
  });

  it('when the song is not among them (an older one), then the newest five; an artist with one song has no queue', () => {
    expect(nextFive(songs('a', 'b', 'c', 'd', 'e', 'f'), 'z').map((song) => song.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(nextFive(songs('a'), 'a')).toEqual([]);
  });
});
