/**
 * Language codes: validation, canonical form and text direction.
 * @module
 */

/** Longest language code accepted (public API rule 1). */
export const LANGUAGE_MAX_LENGTH = 16;

/**
 * BCP 47 in the shape publishers use: language, optional script, region and variants. The source
 * text, for the host configurations that check a language in their own regex engines (nginx's PCRE).
 */
export const BCP47_PATTERN = '[a-zA-Z]{2,3}(?:-[a-zA-Z]{4})?(?:-(?:[a-zA-Z]{2}|\\d{3}))?(?:-(?:[a-zA-Z0-9]{5,8}|\\d[a-zA-Z0-9]{3}))*';
const BCP47 = new RegExp(`^${BCP47_PATTERN}$`);

/** Explains the language rule in error messages. */
export const LANGUAGE_RULE =
  'Use a BCP 47 language code of at most 16 characters, such as "en", "pt-BR" or "zh-Hant".';

/** True when `value` is an acceptable BCP 47 code. */
export function isLanguageCode(value: string): boolean {
  return value.length <= LANGUAGE_MAX_LENGTH && BCP47.test(value);
}

/**
 * Canonical casing: language lowercase, script titlecase, region uppercase.
 * Stored codes are canonical so that `?lang=pt-BR` and the stored code compare equal.
 * @example canonicalLanguage('PT-br') // 'pt-BR'
 */
export function canonicalLanguage(value: string): string {
  return value
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 4 && /^[a-zA-Z]+$/.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      return part.toLowerCase();
    })
    .join('-');
}

const RTL_LANGUAGES = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'ha-Arab', 'he', 'khw', 'ks', 'ku-Arab', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Syrc', 'Thaa', 'Nkoo', 'Adlm', 'Rohg']);

/**
 * Text direction of a language: `rtl` for Arabic, Hebrew, Persian, Urdu and
 * other right-to-left languages or scripts, `ltr` otherwise.
 */
export function textDirection(language: string): 'ltr' | 'rtl' {
  const code = canonicalLanguage(language);
  const [primary, second] = code.split('-');
  if (second && second.length === 4) return RTL_SCRIPTS.has(second) ? 'rtl' : 'ltr';
  return RTL_LANGUAGES.has(primary!) || RTL_LANGUAGES.has(code) ? 'rtl' : 'ltr';
}
