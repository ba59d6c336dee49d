// An emoji written as a thing read as its name (src/docs/emoji.ts, through src/docs/spelling.ts).
import { describe, expect, it } from 'vitest';
import { emojiName } from '../../src/docs/emoji.ts';
import { correctSpelling, type SpellingLexicon } from '../../src/docs/spelling.ts';

const NO_WORDS: SpellingLexicon = { uses: () => 0, englishRank: () => -1 };
/** Catalogues that write the words of an emoji's name: stars, thumbs up. */
const STARS: SpellingLexicon = { uses: (stem) => (stem === 'star' ? 3 : 0), englishRank: () => -1 };
const THUMBS: SpellingLexicon = { uses: (stem) => (stem === 'thumb' || stem === 'up' ? 3 : 0), englishRank: () => -1 };

describe('emoji written as things', () => {
  it('names an emoji by its Unicode short name, with or without its variation selector', () => {
    expect(emojiName('👍')).toBe('thumbs up');
    expect(emojiName('⭐')).toBe('star');
    expect(emojiName('❤️')).toBe('red heart');
    expect(emojiName('❤')).toBe('red heart');
    expect(emojiName('x')).toBeUndefined();
  });

  it('reads an emoji after an article as its name and says so, and leaves one that only sets a mood', () => {
    expect(correctSpelling('put a ⭐ on octocat/hello-world 🎉', STARS)).toEqual({ query: 'put a star on octocat/hello-world 🎉', corrections: [{ from: '⭐', to: 'star' }] });
    expect(correctSpelling('give MR 12 a 👍🏽!!', THUMBS).query).toBe('give MR 12 a thumbs up!!');
    expect(correctSpelling('omg 😱 delete it', NO_WORDS).query).toBe('omg 😱 delete it');
    // Inside quotes it is the text of a message.
    expect(correctSpelling("post 'ship a 🚀' in #general", NO_WORDS).query).toBe("post 'ship a 🚀' in #general");
  });

  it('reads an emoji as an emoji where the catalogue writes no word of its name as its own ("a 🎉": party popper emoji)', () => {
    expect(correctSpelling("put a 🎉 on Ana's post", NO_WORDS).query).toBe("put a party popper emoji on Ana's post");
    expect(correctSpelling('put a ⭐ on octocat/hello-world', NO_WORDS).query).toBe('put a star emoji on octocat/hello-world');
  });

  it('reads a shortcode as its words and "emoji", and no time', () => {
    expect(correctSpelling('react with :tada: on the launch post', NO_WORDS).query).toBe('react with tada emoji on the launch post');
    expect(correctSpelling('add :white_check_mark: and :+1:', NO_WORDS).query).toBe('add white check mark emoji and +1 emoji');
    expect(correctSpelling('book it for 10:30:00 tomorrow', NO_WORDS).query).toBe('book it for 10:30:00 tomorrow');
  });
});
