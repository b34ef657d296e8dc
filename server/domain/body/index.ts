/**
 * Article bodies: what publishers send (Markdown or HTML), what we store
 * (canonical Markdown) and what readers get (sanitised HTML, plain text).
 *
 * Pure functions only — no filesystem or network — so the rules can be
 * tested in isolation and reused by the API, the admin tools and the
 * static-site build.
 * @module
 */

export { BODY_WARNING_CODES, type BodyWarning, type BodyWarningCode } from './warnings.ts';
export { prepareBody, type PrepareBodyInput, type PreparedBody } from './prepare.ts';
export { BODY_RENDER_VERSION, markdownToPlainText, renderMarkdown, renderMarkdownBody, type RenderedBody } from './render.ts';
export { currentRendering, keptColumns, storedRendering, type KeptRendering } from './current-rendering.ts';
export { firstCodePoints } from './prose.ts';
export { readLinkTargets, type LinkTarget } from './link-targets.ts';
export { BODY_LIMITS, checkHtmlBody, checkMarkdownBody, startedMillions, type BodyLimitName, type BodyLimitProblem } from './limits.ts';
export { BodyRejectedError, inlineBodyProcessor, processBody, type BodyJob, type BodyProcessor, type ProcessedBody, type RenderedMarkdown } from './process.ts';
