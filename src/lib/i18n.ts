/**
 * The few words of interface text the pages show, language names and dates.
 * Languages without their own strings fall back to English, and the page
 * marks those labels `lang="en"` so readers and screen readers know.
 * Dates are formatted in UTC so a page does not depend on the server's zone.
 * @module
 */

/** Interface text of one language. */
export interface UiStrings {
  readonly published: string;
  readonly updated: string;
  readonly by: string;
  /** Label of the language switcher, with its colon as the language writes it. */
  readonly otherLanguages: string;
  readonly languages: string;
  readonly search: string;
  readonly rss: string;
  readonly articles: string;
  readonly channels: string;
  readonly latest: string;
  readonly skipToContent: string;
  readonly noArticles: string;
  /** The 404 page's heading. */
  readonly notFound: string;
  /** What the 404 page says happened. */
  readonly notFoundText: string;
  /** What leads the 404 page's links (home, the channel). */
  readonly notFoundNext: string;
  /** The search field's label. */
  readonly searchLabel: string;
  /** The search page's count of results: `{count}` is replaced. */
  readonly searchResults: string;
  readonly searchNone: string;
  /** Asked for a query shorter than two characters. */
  readonly searchShort: string;
  readonly searchFailed: string;
  /** Before the form that asks the public API when JavaScript is off. */
  readonly searchNoScript: string;
}

const STRINGS: Record<string, UiStrings> = {
  en: {
    published: 'Published',
    updated: 'Updated',
    by: 'By',
    otherLanguages: 'Other languages:',
    languages: 'Languages',
    search: 'Search',
    rss: 'RSS feed',
    articles: 'Articles',
    channels: 'Channels',
    latest: 'Latest articles',
    skipToContent: 'Skip to content',
    noArticles: 'No articles yet.',
    notFound: 'Page not found',
    notFoundText: 'Nothing is published at this address. It may never have existed, or it was unpublished or moved.',
    notFoundNext: 'Search above, or go to:',
    searchLabel: 'Search the articles',
    searchResults: '{count} results',
    searchNone: 'No article matches.',
    searchShort: 'Type at least two characters.',
    searchFailed: 'Search is not available right now. Try again later.',
    searchNoScript: 'Results appear here with JavaScript. Without it, the public API answers the same search (JSON):',
  },
  ar: {
    published: 'نُشر',
    updated: 'حُدِّث',
    by: 'بقلم',
    otherLanguages: 'لغات أخرى:',
    languages: 'اللغات',
    search: 'بحث',
    rss: 'موجز RSS',
    articles: 'المقالات',
    channels: 'القنوات',
    latest: 'أحدث المقالات',
    skipToContent: 'انتقل إلى المحتوى',
    noArticles: 'لا توجد مقالات بعد.',
    notFound: 'الصفحة غير موجودة',
    notFoundText: 'لا يوجد شيء منشور على هذا العنوان. ربما لم يوجد قط، أو أُلغي نشره أو نُقل.',
    notFoundNext: 'ابحث في الأعلى، أو انتقل إلى:',
    searchLabel: 'ابحث في المقالات',
    searchResults: '{count} نتيجة',
    searchNone: 'لا توجد مقالة مطابقة.',
    searchShort: 'اكتب حرفين على الأقل.',
    searchFailed: 'البحث غير متاح الآن. حاول لاحقًا.',
    searchNoScript: 'تظهر النتائج هنا مع جافاسكربت. ومن دونها تجيب واجهة البرمجة العامة عن البحث نفسه (JSON):',
  },
  de: {
    published: 'Veröffentlicht',
    updated: 'Aktualisiert',
    by: 'Von',
    otherLanguages: 'Andere Sprachen:',
    languages: 'Sprachen',
    search: 'Suche',
    rss: 'RSS-Feed',
    articles: 'Artikel',
    channels: 'Kanäle',
    latest: 'Neueste Artikel',
    skipToContent: 'Zum Inhalt springen',
    noArticles: 'Noch keine Artikel.',
    notFound: 'Seite nicht gefunden',
    notFoundText: 'Unter dieser Adresse ist nichts veröffentlicht. Vielleicht gab es sie nie, oder sie wurde zurückgezogen oder verschoben.',
    notFoundNext: 'Suchen Sie oben, oder gehen Sie zu:',
    searchLabel: 'Artikel durchsuchen',
    searchResults: '{count} Treffer',
    searchNone: 'Kein Artikel passt.',
    searchShort: 'Geben Sie mindestens zwei Zeichen ein.',
    searchFailed: 'Die Suche ist gerade nicht verfügbar. Versuchen Sie es später.',
    searchNoScript: 'Mit JavaScript erscheinen die Treffer hier. Ohne beantwortet die öffentliche API dieselbe Suche (JSON):',
  },
  es: {
    published: 'Publicado',
    updated: 'Actualizado',
    by: 'Por',
    otherLanguages: 'Otros idiomas:',
    languages: 'Idiomas',
    search: 'Buscar',
    rss: 'Canal RSS',
    articles: 'Artículos',
    channels: 'Canales',
    latest: 'Últimos artículos',
    skipToContent: 'Ir al contenido',
    noArticles: 'Todavía no hay artículos.',
    notFound: 'Página no encontrada',
    notFoundText: 'No hay nada publicado en esta dirección. Puede que nunca haya existido, o que se haya retirado o trasladado.',
    notFoundNext: 'Busque arriba, o vaya a:',
    searchLabel: 'Buscar artículos',
    searchResults: '{count} resultados',
    searchNone: 'Ningún artículo coincide.',
    searchShort: 'Escriba al menos dos caracteres.',
    searchFailed: 'La búsqueda no está disponible ahora. Inténtelo más tarde.',
    searchNoScript: 'Los resultados aparecen aquí con JavaScript. Sin él, la API pública responde la misma búsqueda (JSON):',
  },
  fa: {
    published: 'منتشر شده',
    updated: 'به‌روزرسانی',
    by: 'نوشتهٔ',
    otherLanguages: 'زبان‌های دیگر:',
    languages: 'زبان‌ها',
    search: 'جستجو',
    rss: 'خوراک RSS',
    articles: 'مقاله‌ها',
    channels: 'کانال‌ها',
    latest: 'تازه‌ترین مقاله‌ها',
    skipToContent: 'پرش به محتوا',
    noArticles: 'هنوز مقاله‌ای نیست.',
    notFound: 'صفحه پیدا نشد',
    notFoundText: 'در این نشانی چیزی منتشر نشده است. شاید هرگز وجود نداشته، یا از انتشار خارج یا جابه‌جا شده است.',
    notFoundNext: 'در بالا جستجو کنید، یا بروید به:',
    searchLabel: 'جستجو در مقاله‌ها',
    searchResults: '{count} نتیجه',
    searchNone: 'هیچ مقاله‌ای پیدا نشد.',
    searchShort: 'دست‌کم دو نویسه بنویسید.',
    searchFailed: 'جستجو اکنون در دسترس نیست. بعداً دوباره امتحان کنید.',
    searchNoScript: 'نتیجه‌ها با جاوااسکریپت اینجا نمایش داده می‌شوند. بدون آن، API عمومی همین جستجو را پاسخ می‌دهد (JSON):',
  },
  fr: {
    published: 'Publié',
    updated: 'Mis à jour',
    by: 'Par',
    otherLanguages: 'Autres langues\u00a0:',
    languages: 'Langues',
    search: 'Rechercher',
    rss: 'Flux RSS',
    articles: 'Articles',
    channels: 'Chaînes',
    latest: 'Derniers articles',
    skipToContent: 'Aller au contenu',
    noArticles: 'Aucun article pour le moment.',
    notFound: 'Page introuvable',
    notFoundText: 'Rien n’est publié à cette adresse. Elle n’a peut-être jamais existé, ou elle a été dépubliée ou déplacée.',
    notFoundNext: 'Cherchez ci-dessus, ou allez à\u00a0:',
    searchLabel: 'Rechercher dans les articles',
    searchResults: '{count} résultats',
    searchNone: 'Aucun article ne correspond.',
    searchShort: 'Saisissez au moins deux caractères.',
    searchFailed: 'La recherche n’est pas disponible pour le moment. Réessayez plus tard.',
    searchNoScript: 'Les résultats s’affichent ici avec JavaScript. Sans lui, l’API publique répond à la même recherche (JSON)\u00a0:',
  },
  he: {
    published: 'פורסם',
    updated: 'עודכן',
    by: 'מאת',
    otherLanguages: 'שפות נוספות:',
    languages: 'שפות',
    search: 'חיפוש',
    rss: 'הזנת RSS',
    articles: 'מאמרים',
    channels: 'ערוצים',
    latest: 'מאמרים אחרונים',
    skipToContent: 'דילוג לתוכן',
    noArticles: 'אין עדיין מאמרים.',
    notFound: 'הדף לא נמצא',
    notFoundText: 'לא פורסם דבר בכתובת זו. ייתכן שמעולם לא הייתה קיימת, או שפרסומה בוטל או שהועברה.',
    notFoundNext: 'חפשו למעלה, או עברו אל:',
    searchLabel: 'חיפוש במאמרים',
    searchResults: '{count} תוצאות',
    searchNone: 'אין מאמר תואם.',
    searchShort: 'הקלידו לפחות שני תווים.',
    searchFailed: 'החיפוש אינו זמין כעת. נסו שוב מאוחר יותר.',
    searchNoScript: 'התוצאות מופיעות כאן עם JavaScript. בלעדיו, ה-API הציבורי עונה על אותו חיפוש (JSON):',
  },
};

/**
 * The interface language of pages that are in no one language (the
 * homepage, which lists every language; the site's own 404 and search pages):
 * SiteInfo names none.
 */
export const SITE_LANGUAGE = 'en';

/** Interface text for a page, and the language it is really in. */
export interface Ui {
  readonly strings: UiStrings;
  /** Language of `strings` (the page's own, or `en` when it has none). */
  readonly lang: string;
  /** Attributes for an element that shows interface text: `lang`/`dir` only when it falls back to English. */
  readonly attrs: { lang?: string; dir?: 'ltr' };
}

/** Interface text for a page in `language` whose direction is `dir`. */
export function uiFor(language: string, dir: 'ltr' | 'rtl'): Ui {
  const primary = language.split('-')[0]!.toLowerCase();
  const own = STRINGS[primary];
  if (own) return { strings: own, lang: primary, attrs: {} };
  const attrs: Ui['attrs'] = primary === 'en' ? {} : dir === 'rtl' ? { lang: 'en', dir: 'ltr' } : { lang: 'en' };
  return { strings: STRINGS['en']!, lang: 'en', attrs };
}

// Intl lookups are slow next to a render; every answer here is cached per code.
const names = new Map<string, string>();
const ogLocales = new Map<string, string>();

/**
 * A language's own name, e.g. `English`, `العربية`, `Français`, `Português
 * (Brasil)`; the code itself when the runtime does not know it.
 */
export function languageName(code: string): string {
  let name = names.get(code);
  if (name === undefined) {
    try {
      name = new Intl.DisplayNames([code], { type: 'language', fallback: 'code' }).of(code) || code;
      name = name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
    } catch {
      name = code;
    }
    names.set(code, name);
  }
  return name;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date as readers of `language` write it (long form, UTC). */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let format = dateFormats.get(language);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      format = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });
    }
    dateFormats.set(language, format);
  }
  return format.format(date);
}

/** The calendar day (UTC) of an ISO date, to tell whether an update is worth showing. */
export function utcDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
}

/**
 * OpenGraph locale (`language_TERRITORY`) of a BCP 47 code, with the likely
 * region filled in: `en` → `en_US`, `ar` → `ar_EG`, `pt-BR` → `pt_BR`.
 */
export function ogLocale(code: string): string {
  let value = ogLocales.get(code);
  if (value === undefined) {
    try {
      const locale = new Intl.Locale(code).maximize();
      value = locale.region ? `${locale.language}_${locale.region}` : locale.language;
    } catch {
      value = code.replace(/-/g, '_');
    }
    ogLocales.set(code, value);
  }
  return value;
}
