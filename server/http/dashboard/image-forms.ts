/**
 * The dashboard's image upload forms (issue 37): an article image from the
 * editor (file, alt text, focal point, watermark), and a channel's avatar and
 * cover on its settings page, each with the focal-point picker: without
 * script, two number inputs (0–100); with `dashboard-images.js`, a preview
 * of the chosen file on which a click or the arrow keys move a marker and
 * set them, with the crop the avatar (square) or the cover (16:9) will get.
 * Markup only: the uploads are `image-uploads.ts`, which sends every form
 * through the publishing API's `uploadMedia`.
 * @module
 */
import fs from 'node:fs';
import type { ImageView } from '../../domain/media/media-view.ts';
import { AVATAR_SIZE, COVER_SIZE } from '../../domain/media/media-kit.ts';
import type { ChannelView } from '../../domain/channel/channel-view.ts';
import { textDirection } from '../../domain/language.ts';
import type { PublicUrls } from '../../urls/public-urls.ts';
import { dashboardAsset } from './dashboard-assets.ts';
import { DASHBOARD_PATH, html, type Markup } from './dashboard-layout.ts';

/** The script of the focal-point picker and the editor's upload without a reload. */
export const IMAGES_SCRIPT = fs.readFileSync(new URL('./dashboard-images.js', import.meta.url), 'utf8');
/** Its address, by content hash. */
export const IMAGES_SCRIPT_HREF = dashboardAsset('images', 'js', IMAGES_SCRIPT);

/** The text fields of an upload form, by name. */
export const UPLOAD_FIELDS = ['image', 'alt', 'position_x', 'position_y', 'watermark'] as const;
type UploadField = (typeof UPLOAD_FIELDS)[number];

/** What an upload form shows: after a refusal what was sent and what was wrong with it; after an upload, the image. */
export interface UploadFormState {
  /** The text fields as sent (a refused upload keeps them). */
  readonly sent?: Readonly<Record<string, string>>;
  /** Messages by field name (`form`: one no field shows). */
  readonly problems?: ReadonlyMap<string, string>;
  /** The image just uploaded, and where the dashboard shows it ({@link dashboardMediaSrc}). */
  readonly uploaded?: { readonly view: ImageView; readonly src: string };
}

/** Which channel image a form sets. */
export type ChannelImagePurpose = 'channel_avatar' | 'channel_cover';

/**
 * The address the dashboard shows a stored image at: its path under `/media/` on the dashboard's own
 * server, which serves the media folder (so `img-src 'self'` covers it wherever the public site is).
 */
export function dashboardMediaSrc(url: string, urls: PublicUrls): string {
  const prefix = urls.media('');
  return url.startsWith(prefix) ? `/media/${url.slice(prefix.length)}` : url;
}

/** Where an article image of a translation's editor is uploaded. */
export function articleImageAction(editorAddress: string): string {
  return `${editorAddress}/images`;
}

/** Where a channel image is uploaded. */
export function channelImageAction(channel: string, purpose: ChannelImagePurpose): string {
  return `${DASHBOARD_PATH}/channels/${encodeURIComponent(channel)}/settings/${purpose === 'channel_avatar' ? 'avatar' : 'cover'}`;
}

/** The field helpers of one form, whose ids start with `prefix`. */
function fieldsOf(prefix: string, state: UploadFormState) {
  const problem = (name: UploadField) => state.problems?.get(name);
  const id = (name: string) => `${prefix}-${name}`;
  const described = (name: UploadField, hint?: string) => {
    const ids = [problem(name) ? id(`${name}-problem`) : '', hint ?? ''].filter(Boolean).join(' ');
    return html`${problem(name) ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;
  };
  const note = (name: UploadField) => (problem(name) ? html`<span class="field-problem" id="${id(`${name}-problem`)}">${problem(name)}</span>` : '');
  const sent = (name: string, fallback = '') => state.sent?.[name] ?? fallback;
  return { problem, id, described, note, sent };
}

/** The refusal above a form: nothing was uploaded, and what no field shows. */
function refusal(state: UploadFormState): Markup {
  if (!state.problems || state.problems.size === 0) return html``;
  const general = state.problems.get('form');
  return html`<div class="error" role="alert"><p>Nothing was uploaded. ${general ?? 'Correct the fields marked below and upload again.'}</p></div>`;
}

/**
 * The focal point: two number inputs, and the picker's preview (filled by the script once a file is chosen).
 * @param crop the aspect of the crop the picker shows (width / height), or none for an article image (kept whole).
 */
function focalPoint(prefix: string, state: UploadFormState, crop: { width: number; height: number; label: string } | null): Markup {
  const f = fieldsOf(prefix, state);
  const number = (name: 'position_x' | 'position_y', label: string) =>
    html`<label for="${f.id(name)}">${label} <input type="number" id="${f.id(name)}" name="${name}" min="0" max="100" step="any" inputmode="decimal" value="${f.sent(name, '50')}" data-focal="${name === 'position_x' ? 'x' : 'y'}"${f.described(name, f.id('focal-hint'))}></label>
${f.note(name)}`;
  return html`<fieldset class="focal" data-focal-picker${crop ? html` data-crop-width="${crop.width}" data-crop-height="${crop.height}"` : ''}>
<legend>Focal point</legend>
<p class="muted" id="${f.id('focal-hint')}">The point the image is about, in percent: 0 0 is the top left corner, 50 50 the centre, 100 100 the bottom right.${crop ? ` ${crop.label}` : ' Crops made of the image later keep it in view.'}</p>
<div class="focal-numbers">
${number('position_x', 'Horizontal position')}
${number('position_y', 'Vertical position')}
</div>
<div class="focal-preview" data-focal-preview hidden></div>
</fieldset>`;
}

/** The file input. */
function fileInput(prefix: string, state: UploadFormState, label: string): Markup {
  const f = fieldsOf(prefix, state);
  return html`<label for="${f.id('image')}">${label} <input type="file" id="${f.id('image')}" name="image" required accept="image/jpeg,image/png,image/webp,image/gif,image/avif,image/tiff" data-focal-file${f.described('image', f.id('image-hint'))}></label>
<span class="muted" id="${f.id('image-hint')}">JPEG, PNG, WebP, GIF, AVIF or TIFF; stored as WebP.</span>
${f.note('image')}`;
}

/**
 * The editor's "Add an image" section: its own form (a file cannot travel in the text form), so the page says
 * to save the text first; with script the upload is sent without leaving the page and its Markdown goes
 * into the body at the cursor. The alt text is in the translation's `language` (right to left where it is).
 */
export function articleImageSection(editorAddress: string, language: string, state: UploadFormState = {}): Markup {
  const prefix = 'article-image';
  const f = fieldsOf(prefix, state);
  const watermark = f.sent('watermark', 'auto');
  const option = (value: string, label: string) => html`<option value="${value}"${watermark === value ? html` selected` : ''}>${label}</option>`;
  return html`<section class="images" id="article-image" aria-labelledby="article-image-heading" data-article-image>
<h2 id="article-image-heading">Add an image</h2>
<p class="muted" id="article-image-how" data-upload-how>Save your text first: uploading opens this page again with the text as last saved, and the image's Markdown below it to copy into the body.</p>
<p role="status" class="muted" id="article-image-status" data-upload-status></p>
<div data-upload-body>
${refusal(state)}
${
  state.uploaded
    ? html`<div class="uploaded">
<img src="${state.uploaded.src}" alt="${state.uploaded.view.alt}" width="${state.uploaded.view.width}" height="${state.uploaded.view.height}">
<label for="article-image-markdown">Markdown of the uploaded image (copy it into the body) <textarea id="article-image-markdown" class="source" rows="3" readonly data-uploaded-markdown>${state.uploaded.view.markdown}</textarea></label>
</div>`
    : ''
}
<form method="post" action="${articleImageAction(editorAddress)}" enctype="multipart/form-data" class="stack wide" aria-labelledby="article-image-heading" data-upload-form>
${fileInput(prefix, state, 'Image file')}
<label for="${f.id('alt')}">Alt text: what the image shows <input type="text" id="${f.id('alt')}" name="alt" required maxlength="1000" lang="${language}" dir="${textDirection(language)}" value="${f.sent('alt')}"${f.described('alt', f.id('alt-hint'))}></label>
<span class="muted" id="${f.id('alt-hint')}">Required, in the translation's language: readers who cannot see the image hear or read this instead.</span>
${f.note('alt')}
${focalPoint(prefix, state, null)}
<label for="${f.id('watermark')}">Watermark <select id="${f.id('watermark')}" name="watermark"${f.described('watermark')}>
${option('auto', 'As the channel’s setting')}${option('on', 'On: the channel’s name on the image')}${option('off', 'Off')}
</select></label>
${f.note('watermark')}
<button type="submit">Upload the image</button>
</form>
</div>
</section>`;
}

/** An aspect ratio in its lowest terms: 1600 × 900 is "16:9". */
function aspect(size: { width: number; height: number }): string {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const d = gcd(size.width, size.height);
  return `${size.width / d}:${size.height / d}`;
}

/** One channel image's form, with the image it has now. */
function channelImageForm(view: ChannelView, urls: PublicUrls, purpose: ChannelImagePurpose, state: UploadFormState): Markup {
  const avatar = purpose === 'channel_avatar';
  const prefix = avatar ? 'avatar' : 'cover';
  const current = avatar ? view.avatar_url : view.cover_url;
  const name = avatar ? 'avatar' : 'cover';
  const size = avatar ? AVATAR_SIZE : COVER_SIZE;
  const crop = avatar
    ? { ...AVATAR_SIZE, label: `The avatar is cut to a square around it and stored at ${AVATAR_SIZE.width} × ${AVATAR_SIZE.height} pixels.` }
    : { ...COVER_SIZE, label: `The cover is cut to ${aspect(COVER_SIZE)} around it, at most ${COVER_SIZE.width} × ${COVER_SIZE.height} pixels.` };
  return html`<section class="channel-image" aria-labelledby="${prefix}-heading">
<h3 id="${prefix}-heading">${avatar ? 'Avatar' : 'Cover'}</h3>
${
  current
    ? html`<p><img class="current-${name}" src="${dashboardMediaSrc(current, urls)}" alt="The channel's ${name} now" width="${size.width}" height="${size.height}"></p>`
    : html`<p class="muted">No ${name} yet.</p>`
}
${refusal(state)}
<form method="post" action="${channelImageAction(view.slug, purpose)}" enctype="multipart/form-data" class="stack wide" aria-labelledby="${prefix}-heading">
${fileInput(prefix, state, `New ${name}: image file`)}
${focalPoint(prefix, state, crop)}
<button type="submit">Upload the ${name}</button>
</form>
</section>`;
}

/** The settings page's avatar and cover forms; `state`: what the last upload of one of them left to show. */
export function channelImagesSection(view: ChannelView, urls: PublicUrls, state?: { purpose: ChannelImagePurpose; form: UploadFormState }): Markup {
  const of = (purpose: ChannelImagePurpose) => (state?.purpose === purpose ? state.form : {});
  return html`<h2 id="images">Avatar and cover</h2>
<p class="muted">Readers see them on the channel's pages and in its feeds once the site is built again, a moment after the upload.</p>
<div class="channel-images">
${channelImageForm(view, urls, 'channel_avatar', of('channel_avatar'))}
${channelImageForm(view, urls, 'channel_cover', of('channel_cover'))}
</div>`;
}
