// The dashboard's image forms, with script (image-forms.ts; each works without it):
// - the focal-point picker: once a file is chosen, a preview of it (an object URL, never sent anywhere) on
//   which a click or the arrow keys move a marker and set the two number inputs, with the crop an avatar
//   (square) or a cover (16:9) will get drawn over it;
// - the editor's upload, sent with fetch: the answer is the same page the form gets without script, and the
//   image's Markdown from it goes into the body at the cursor (an `input` event tells whoever mirrors the
//   text area, such as the source editor), so nothing typed is lost.
// Text only (textContent, form values): nothing the server sends is inserted as markup but its own section.
// In a function of its own: the page's other scripts share the global scope of classic scripts.
(() => {
  'use strict';

  const clamp = (value, min, max) => Math.min(max, Math.max(min, value));

  /** The picker of one fieldset. */
  function initPicker(fieldset) {
    const form = fieldset.closest('form');
    const file = form && form.querySelector('[data-focal-file]');
    const inputX = fieldset.querySelector('[data-focal="x"]');
    const inputY = fieldset.querySelector('[data-focal="y"]');
    const preview = fieldset.querySelector('[data-focal-preview]');
    if (!file || !inputX || !inputY || !preview) return;
    const cropWidth = Number(fieldset.getAttribute('data-crop-width'));
    const cropHeight = Number(fieldset.getAttribute('data-crop-height'));
    const hasCrop = cropWidth > 0 && cropHeight > 0;
    const hintId = `${inputX.id}-keys`;
    let url = null;

    const frame = document.createElement('div');
    frame.className = 'focal-frame';
    frame.tabIndex = 0;
    frame.setAttribute('role', 'application');
    frame.setAttribute('aria-describedby', hintId);
    const img = document.createElement('img');
    img.alt = 'Preview of the chosen image';
    const crop = document.createElement('span');
    crop.className = 'focal-crop';
    crop.setAttribute('aria-hidden', 'true');
    const marker = document.createElement('span');
    marker.className = 'focal-marker';
    marker.setAttribute('aria-hidden', 'true');
    frame.append(img, ...(hasCrop ? [crop] : []), marker);
    const hint = document.createElement('p');
    hint.className = 'muted';
    hint.id = hintId;
    hint.textContent = 'Click the image where its focal point is, or focus it and use the arrow keys (with Shift, ten steps at a time).';
    const say = document.createElement('p');
    say.className = 'muted';
    say.setAttribute('aria-live', 'polite');
    preview.append(frame, hint, say);

    const read = (input) => {
      const value = Number(input.value);
      return input.value.trim() !== '' && Number.isFinite(value) ? clamp(value, 0, 100) : 50;
    };
    const show = () => {
      const x = read(inputX);
      const y = read(inputY);
      marker.style.left = `${x}%`;
      marker.style.top = `${y}%`;
      const where = `Focal point ${Math.round(x)}% from the left, ${Math.round(y)}% from the top`;
      frame.setAttribute('aria-label', `${where}. The preview of the chosen image.`);
      say.textContent = `${where}.${hasCrop ? ' Outside the frame is cut off.' : ''}`;
      if (!hasCrop || !img.naturalWidth || !img.naturalHeight) return;
      // The window planFocusCrop (focus-crop.ts) keeps, in percent of the image.
      const width = img.naturalWidth;
      const height = img.naturalHeight;
      const ratio = cropWidth / cropHeight;
      const wider = width / height > ratio;
      const w = wider ? height * ratio : width;
      const h = wider ? height : width / ratio;
      const left = clamp((x / 100) * width - w / 2, 0, width - w);
      const top = clamp((y / 100) * height - h / 2, 0, height - h);
      crop.style.left = `${(left / width) * 100}%`;
      crop.style.top = `${(top / height) * 100}%`;
      crop.style.width = `${(w / width) * 100}%`;
      crop.style.height = `${(h / height) * 100}%`;
    };
    const set = (x, y) => {
      inputX.value = String(Math.round(clamp(x, 0, 100)));
      inputY.value = String(Math.round(clamp(y, 0, 100)));
      show();
    };

    file.addEventListener('change', () => {
      if (url) URL.revokeObjectURL(url);
      url = null;
      const chosen = file.files && file.files[0];
      preview.hidden = !chosen;
      if (!chosen) return;
      url = URL.createObjectURL(chosen);
      img.src = url;
    });
    img.addEventListener('load', show);
    img.addEventListener('error', () => {
      preview.hidden = true;
    });
    frame.addEventListener('click', (event) => {
      const box = img.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) return;
      set(((event.clientX - box.left) / box.width) * 100, ((event.clientY - box.top) / box.height) * 100);
    });
    frame.addEventListener('keydown', (event) => {
      const step = event.shiftKey ? 10 : 1;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      set(read(inputX) + move[0], read(inputY) + move[1]);
    });
    inputX.addEventListener('input', show);
    inputY.addEventListener('input', show);
    show();
  }

  /** The body's text area and where its cursor was when it lost the focus (null: never placed; the end then). */
  const body = document.getElementById('content_markdown');
  let cursor = null;
  if (body) {
    body.addEventListener('blur', () => (cursor = [body.selectionStart, body.selectionEnd]));
    // The source editor, when it runs, keeps its cursor in the hidden text area and says so with a select event.
    body.addEventListener('select', () => (cursor = [body.selectionStart, body.selectionEnd]));
  }

  /** Puts `markdown` in the body at the cursor, as a paragraph of its own. */
  function insertIntoBody(markdown) {
    if (!body) return false;
    const value = body.value;
    const [start, end] = cursor ? [Math.min(cursor[0], value.length), Math.min(cursor[1], value.length)] : [value.length, value.length];
    const before = value.slice(0, start);
    const after = value.slice(end);
    const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    const trail = after === '' || after.startsWith('\n\n') ? (after === '' ? '\n' : '') : after.startsWith('\n') ? '\n' : '\n\n';
    const text = `${lead}${markdown}${trail}`;
    body.value = before + text + after;
    const at = before.length + text.length;
    body.setSelectionRange(at, at);
    cursor = [at, at];
    body.dispatchEvent(new Event('input', { bubbles: true }));
    return true;
  }

  /**
   * The editor's upload section: its form sent with fetch, and the form's part of the answer (the refusal, the
   * image uploaded, the form again) put in place of its own; the status line stays, so it is announced.
   */
  function initArticleUpload(section) {
    const status = section.querySelector('[data-upload-status]');
    const how = section.querySelector('[data-upload-how]');
    if (!status || !body) {
      for (const fieldset of section.querySelectorAll('[data-focal-picker]')) initPicker(fieldset);
      return;
    }
    if (how) how.textContent = 'The image is uploaded without leaving this page, and its Markdown goes into the body at the cursor (at the end if you have not placed it); what you typed stays. Save afterwards to keep it.';
    const bind = (part) => {
      for (const fieldset of part.querySelectorAll('[data-focal-picker]')) initPicker(fieldset);
      const form = part.querySelector('[data-upload-form]');
      if (form) form.addEventListener('submit', (event) => send(event, part, form));
    };
    const send = async (event, part, form) => {
      event.preventDefault();
      const button = form.querySelector('button[type="submit"]');
      if (button) button.disabled = true;
      status.textContent = 'Uploading the image…';
      let response;
      let text;
      try {
        response = await fetch(form.action, { method: 'POST', body: new FormData(form), credentials: 'same-origin' });
        text = await response.text();
      } catch {
        if (button) button.disabled = false;
        status.textContent = 'The upload got no answer: the connection dropped, or the file is larger than the server takes. Check the connection and the file’s size, then upload it again.';
        return;
      }
      const answer = new DOMParser().parseFromString(text, 'text/html');
      const next = answer.querySelector('[data-article-image] [data-upload-body]');
      if (!next) {
        if (button) button.disabled = false;
        const problem = answer.querySelector('.error');
        status.textContent = `The upload was refused (${response.status}): ${problem ? problem.textContent.trim() : 'the server gave no reason'} Nothing was inserted.`;
        return;
      }
      const markdown = response.ok ? next.querySelector('[data-uploaded-markdown]') : null;
      const fresh = document.importNode(next, true);
      part.replaceWith(fresh);
      bind(fresh);
      if (markdown && insertIntoBody(markdown.value)) {
        status.textContent = 'The image is uploaded and its Markdown, with its alt text, is in the body at the cursor. Save the text to keep it.';
        const shown = fresh.querySelector('[data-uploaded-markdown]');
        if (shown) shown.focus();
      } else {
        status.textContent = 'Nothing was uploaded: the form says what to correct.';
        const wrong = fresh.querySelector('[aria-invalid="true"]') || fresh.querySelector('[role="alert"]');
        if (wrong) {
          if (!wrong.matches('input, select, textarea')) wrong.tabIndex = -1;
          wrong.focus();
        }
      }
    };
    const part = section.querySelector('[data-upload-body]');
    if (part) bind(part);
  }

  for (const section of document.querySelectorAll('[data-article-image]')) initArticleUpload(section);
  for (const fieldset of document.querySelectorAll('[data-focal-picker]')) {
    if (!fieldset.closest('[data-article-image]')) initPicker(fieldset);
  }
})();
