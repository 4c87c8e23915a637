/**
 * Approximate token counts, without a tokenizer dependency.
 *
 * Method: every run of ASCII characters costs one token per 4 characters (the usual English
 * average for BPE tokenizers such as cl100k/o200k, whitespace and punctuation included), rounded up
 * once over the whole text; every non-ASCII code point (accents, CJK, emoji) costs one token, since
 * BPE tokenizers seldom merge them. So `estimateTokens(text) = ceil(asciiChars / 4) + nonAsciiCodePoints`.
 * It over-estimates non-Latin text slightly and is within about 10% for English prose and code,
 * which is what credit estimates and length budgets need. Deterministic and O(n).
 */
export const estimateTokens = (text: string): number => {
  let ascii = 0
  let other = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) {
      ascii++
    } else if (code >= 0xd800 && code <= 0xdbff) {
      // a surrogate pair is one code point
      other++
      i++
    } else {
      other++
    }
  }
  return Math.ceil(ascii / 4) + other
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu

/**
 * Words: runs of letters/digits (with inner apostrophes or hyphens); in Chinese, Japanese and Korean
 * text, which has no spaces, each character counts as a word.
 */
export const countWords = (text: string): number => {
  const cjk = (text.match(CJK) ?? []).length
  const m = text.replace(CJK, " ").match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)
  return cjk + (m ? m.length : 0)
}
