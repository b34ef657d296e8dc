/**
 * The translation editor's script, run in the browser (bundled by
 * `source-editor-bundle.ts`, served from the dashboard's own address).
 * Progressive enhancement of a form that works without it:
 *
 * - CodeMirror 6 shows the body's `<textarea name="content_markdown">`
 *   (Markdown highlighting, wrapped lines, right to left where the language
 *   is, named by the field's label) and writes every change back into the
 *   hidden textarea, so the ordinary form post saves what was typed. Tab is
 *   left to move the focus (no `indentWithTab`).
 * - Autosave: a few seconds after typing stops, the form's texts go to
 *   `…/autosave` (the server saves a draft, or keeps the texts privately for
 *   a translation a save would send to moderation), and a polite live region
 *   says what happened. A save someone else made meanwhile stops it.
 *
 * The page's CSP has no 'unsafe-inline' for styles: CodeMirror's style
 * modules (style-mod) would be a `<style>` element, which it refuses, so
 * they are mounted as a constructed style sheet (`adoptedStyleSheets`),
 * which `style-src` does not govern. Text only (textContent): nothing the
 * server answers becomes markup.
 * @module
 */
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { markdownKeymap, markdownLanguage } from '@codemirror/lang-markdown';
import { tags } from '@lezer/highlight';
import { StyleModule } from 'style-mod';

/** How long after the last change the texts are autosaved. */
const AUTOSAVE_DELAY_MS = 2000;

/**
 * style-mod's `mount`, with a constructed style sheet per document instead of a `<style>` element (which it
 * makes for a document; it adopts a sheet only in a shadow root). Keeps its ordering of modules: a module
 * mounted again moves after those given before it.
 */
function mountAdopted(): void {
  const sets = new WeakMap<Document | ShadowRoot, { sheet: CSSStyleSheet; modules: StyleModule[] }>();
  StyleModule.mount = (root, given) => {
    const target = root as Document | ShadowRoot;
    const modules = Array.isArray(given) ? (given as readonly StyleModule[]) : [given as StyleModule];
    let set = sets.get(target);
    if (!set) {
      set = { sheet: new CSSStyleSheet(), modules: [] };
      sets.set(target, set);
      target.adoptedStyleSheets = [...target.adoptedStyleSheets, set.sheet];
    }
    let changed = false;
    let j = 0;
    for (const mod of modules) {
      let index = set.modules.indexOf(mod);
      if (index > -1 && index < j) {
        set.modules.splice(index, 1);
        j--;
        index = -1;
        changed = true;
      }
      if (index === -1) {
        set.modules.splice(j++, 0, mod);
        changed = true;
      } else {
        j = index + 1;
      }
    }
    if (changed) set.sheet.replaceSync(set.modules.map((m) => m.getRules()).join('\n'));
  };
}

/** Markdown's marks in the dashboard's colours (its custom properties follow light and dark). */
const highlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700', color: 'var(--accent)' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)', textDecoration: 'underline' },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta, tags.quote, tags.comment], color: 'var(--muted)' },
  { tag: tags.monospace, color: 'var(--fg)' },
]);

/** The editor's frame, from the dashboard's style sheet's custom properties. */
const look = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)', border: '1px solid var(--muted)', borderRadius: '.25rem', maxHeight: '75vh' },
  '&.cm-focused': { outline: '3px solid var(--accent)', outlineOffset: '2px' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, monospace', fontSize: '.9rem', lineHeight: '1.5' },
  '.cm-content': { minHeight: '27em', padding: '.45rem 0', caretColor: 'var(--fg)' },
  '.cm-line': { padding: '0 .5rem' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
});

/** Replaces the body's textarea by CodeMirror, keeping the textarea the form's field. */
function sourceEditor(textarea: HTMLTextAreaElement): EditorView {
  const label = document.querySelector<HTMLLabelElement>(`label[for="${textarea.id}"]`);
  const labelText = document.getElementById(`${textarea.id}-label`);
  const dir = textarea.getAttribute('dir') ?? 'ltr';
  const lang = textarea.getAttribute('lang') ?? '';
  const content: Record<string, string> = { spellcheck: 'true', lang };
  if (labelText) content['aria-labelledby'] = labelText.id;
  else content['aria-label'] = label?.textContent?.trim() ?? 'Body (Markdown)';
  const described = textarea.getAttribute('aria-describedby');
  if (described) content['aria-describedby'] = described;
  if (textarea.getAttribute('aria-invalid') === 'true') content['aria-invalid'] = 'true';
  // True while the editor itself tells the form of a change, so the textarea's listener below does not take it back.
  let echoing = false;
  // True while the editor takes a change another script made to the textarea, which the form has heard already.
  let taking = false;
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        // GFM Markdown, with its Enter (continue a list) and Backspace; not markdown(), whose HTML, CSS and
        // JavaScript support for embedded code would triple the script.
        new LanguageSupport(markdownLanguage, Prec.high(keymap.of(markdownKeymap))),
        syntaxHighlighting(highlight),
        EditorView.lineWrapping,
        EditorView.editorAttributes.of({ dir, class: 'source-editor' }),
        EditorView.contentAttributes.of(content),
        look,
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !taking) {
            textarea.value = update.state.doc.toString();
            // The form hears it as it hears typing in its own fields.
            echoing = true;
            textarea.dispatchEvent(new Event('input', { bubbles: true }));
            echoing = false;
          }
          // The hidden textarea keeps the editor's cursor, so another script (the image upload) inserts where the person was.
          if ((update.selectionSet || update.docChanged) && update.view.hasFocus) {
            const range = update.state.selection.main;
            textarea.setSelectionRange(range.from, range.to);
            textarea.dispatchEvent(new Event('select'));
          }
        }),
      ],
    }),
  });
  textarea.hidden = true;
  (label ?? textarea).after(view.dom);
  // Another script that changes the textarea (the image upload puts Markdown in it) changes the editor too, as one edit.
  textarea.addEventListener('input', () => {
    if (echoing) return;
    const before = view.state.doc.toString();
    const after = textarea.value;
    if (before === after) return;
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) start++;
    let end = 0;
    while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
    taking = true;
    try {
      view.dispatch({ changes: { from: start, to: before.length - end, insert: after.slice(start, after.length - end) }, selection: { anchor: after.length - end }, scrollIntoView: true });
    } finally {
      taking = false;
    }
  });
  // The label's text names the editor now: a click on it goes there, not to the hidden textarea.
  label?.addEventListener('click', (event) => {
    event.preventDefault();
    view.focus();
  });
  return view;
}

/** "10:42 UTC" from an ISO time, as the dashboard shows times. */
const clock = (iso: unknown): string => (typeof iso === 'string' && /T\d\d:\d\d/.test(iso) ? `${iso.slice(11, 16)} UTC` : 'just now');

/** What autosave answers (see `translation-editor.ts`). */
interface AutosaveAnswer {
  readonly saved?: 'draft' | 'private';
  readonly saved_at?: string;
  readonly version?: string;
  readonly message?: string;
  readonly body_warning?: string;
}

/** Autosaves the form's texts a few seconds after typing stops, saying what happened in `status`. */
function autosave(form: HTMLFormElement, address: string, status: HTMLElement): void {
  const say = (text: string) => {
    status.textContent = text;
  };
  const versionField = form.querySelector<HTMLInputElement>('input[name="version"]');
  /** The texts only (the version changes with a draft's save, the texts do not). */
  const texts = () => {
    const data = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
    data.delete('version');
    return data.toString();
  };
  let last = texts();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const bodyWarning = (text: string | undefined) => {
    let span = document.getElementById('content_markdown-warning');
    if (!span && text) {
      span = document.createElement('span');
      span.className = 'field-warning';
      span.id = 'content_markdown-warning';
      (document.querySelector('.source-editor') ?? form).after(span);
    }
    if (span) span.textContent = text ?? '';
  };

  const send = async () => {
    const now = texts();
    if (stopped || now === last) return;
    let answer: Response;
    try {
      answer = await fetch(address, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      });
    } catch {
      say('Not autosaved: the server could not be reached. Your text is still here; press Save once the connection is back.');
      return;
    }
    const json = (answer.headers.get('content-type') ?? '').includes('application/json') ? ((await answer.json()) as AutosaveAnswer) : {};
    if (answer.status === 200 && json.saved === 'draft') {
      last = now;
      if (versionField && json.version) versionField.value = json.version;
      bodyWarning(json.body_warning);
      say(`Saved as draft at ${clock(json.saved_at)}.${json.body_warning ? ` About the body: ${json.body_warning}` : ''}`);
    } else if (answer.status === 200) {
      last = now;
      say(`Autosaved at ${clock(json.saved_at)}, not yet submitted: press Save to submit it.`);
    } else if (answer.status === 409) {
      stopped = true;
      say(json.message ?? 'Autosave stopped: someone else saved this translation meanwhile. Press Save to see both texts and choose.');
    } else if (answer.status === 422 && json.saved) {
      last = now;
      say(`Autosaved privately at ${clock(json.saved_at)}, not to the draft: ${json.message ?? 'the texts are not valid yet.'}`);
    } else if (answer.status === 401) {
      stopped = true;
      say('Not autosaved: you are signed out. Sign in again in another tab, then press Save here.');
    } else if (answer.status === 403) {
      stopped = true;
      say(`Not autosaved: ${json.message ?? 'the dashboard refused it'}`);
    } else {
      say(`Not autosaved: ${json.message ?? `the server answered ${answer.status}`}. Your text is still here; press Save to keep it.`);
    }
  };

  const run = () => {
    timer = undefined;
    const next = (running ?? Promise.resolve()).then(send).catch(() => say('Not autosaved: the answer could not be read. Your text is still here; press Save to keep it.'));
    running = next;
    void next.finally(() => {
      if (running === next) running = undefined;
    });
  };
  form.addEventListener('input', () => {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, AUTOSAVE_DELAY_MS);
  });
  // A Save waits for an autosave under way, so it is made against the version that autosave left.
  form.addEventListener('submit', (event) => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    if (!running) return;
    event.preventDefault();
    void running.then(() => {
      running = undefined;
      form.requestSubmit();
    });
  });
}

function start(): void {
  const form = document.querySelector<HTMLFormElement>('form.editor');
  const textarea = form?.querySelector<HTMLTextAreaElement>('textarea[name="content_markdown"]');
  if (!form || !textarea) return;
  mountAdopted();
  sourceEditor(textarea);
  const address = form.dataset.autosave;
  if (!address) return;
  const status = document.createElement('p');
  status.className = 'autosave-status muted';
  status.id = 'autosave-status';
  status.setAttribute('role', 'status');
  form.querySelector('button[type="submit"]')?.after(status);
  if (form.dataset.autosavePaused !== undefined) {
    status.textContent = 'Autosave is off until you restore or discard the text autosaved earlier.';
    return;
  }
  autosave(form, address, status);
}

start();
