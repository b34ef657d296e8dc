/**
 * The site's icon, `/favicon.svg`, linked from every page: without one,
 * every first visit asks for `/favicon.ico` and logs a 404. An SVG scales
 * to every size browsers ask for and adapts to the dark scheme; it shows a
 * folded newspaper page in the site's link colours.
 * @module
 */

/** Renders `/favicon.svg`. */
export function renderFavicon(): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">',
    '<style>.page{fill:#0b57d0}.line{fill:#fff}@media (prefers-color-scheme:dark){.page{fill:#8ab4f8}.line{fill:#1f1f1f}}</style>',
    '<path class="page" d="M6 3h15l6 6v20H6z"/>',
    '<rect class="line" x="10" y="12" width="13" height="2.5" rx="1"/>',
    '<rect class="line" x="10" y="17" width="13" height="2.5" rx="1"/>',
    '<rect class="line" x="10" y="22" width="9" height="2.5" rx="1"/>',
    '</svg>',
    '',
  ].join('\n');
}
