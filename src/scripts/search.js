// The search page (docs/SEARCH.md): the query lives in the address (`?q=`), so a search can be shared,
// bookmarked and restored with Back. Pagefind's JavaScript API searches the shards of the page's language
// (every shard on the page of every language), merged in the browser; each result says which channel and
// language it comes from. A file of its own, not an inline script, so the pages' Content-Security-Policy
// needs no 'unsafe-inline' (docs/HOSTING.md, "Security headers").
const data = JSON.parse(document.getElementById('search-data')?.textContent || 'null');
const form = document.getElementById('search-form');
const input = document.getElementById('search-query');
const status = document.getElementById('search-status');
const list = document.getElementById('search-results');
const MAX_RESULTS = 20;

/** Pagefind over the page's shards, loaded once (null when the site has none). */
let engine;
function pagefind() {
  if (engine === undefined) engine = load();
  return engine;
}

async function load() {
  const response = await fetch(data.bundles + 'shards.json');
  const shards = response.ok ? await response.json() : [];
  const pool = data.language ? shards.filter((s) => s.language === data.language) : shards;
  if (pool.length === 0) return null;
  const [own, ...rest] = pool;
  const api = await import(data.bundles + own.bundlePath + 'pagefind.js');
  await api.options({ bundlePath: data.bundles + own.bundlePath, excerptLength: 24 });
  for (const shard of rest) await api.mergeIndex(data.bundles + shard.bundlePath, { language: shard.language });
  return api;
}

/** The channel and language of a result, from its address (`/{channel}/{lang}/{article}`). */
function sourceOf(url) {
  const parts = new URL(url, location.href).pathname.split('/').filter(Boolean);
  const [channel, language] = parts.slice(-3);
  return { channel: data.channels[channel] || channel, language: data.languages[language] || language, lang: language };
}

function show(text) {
  status.textContent = text;
}

async function run(query) {
  list.replaceChildren();
  if (query.trim().length < 2) {
    show(query ? data.text.short : '');
    return;
  }
  try {
    const api = await pagefind();
    const found = api ? await api.search(query) : { results: [] };
    const results = await Promise.all(found.results.slice(0, MAX_RESULTS).map((r) => r.data()));
    for (const result of results) list.append(item(result));
    show(results.length ? data.text.results.replace('{count}', String(found.results.length)) : data.text.none);
  } catch {
    show(data.text.failed);
  }
}

function item(result) {
  const source = sourceOf(result.url);
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = result.url;
  link.lang = source.lang;
  link.textContent = result.meta.title || result.url;
  const where = document.createElement('p');
  where.className = 'search-source meta';
  where.textContent = `${source.channel} · ${source.language}`;
  const excerpt = document.createElement('p');
  excerpt.className = 'excerpt';
  excerpt.lang = source.lang;
  // Pagefind's excerpt is escaped text with <mark> around the matches.
  excerpt.innerHTML = result.excerpt;
  li.append(link, where, excerpt);
  return li;
}

function queryOfAddress() {
  return new URLSearchParams(location.search).get('q') || '';
}

if (data && form && input && status && list) {
  input.value = queryOfAddress();
  run(input.value);
  // A new search is a new address (Back returns to the one before); the page is not reloaded.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const query = input.value.trim();
    const url = new URL(location.href);
    url.searchParams.set('q', query);
    history.pushState({ q: query }, '', url);
    run(query);
  });
  window.addEventListener('popstate', () => {
    input.value = queryOfAddress();
    run(input.value);
  });
  // Arrow keys move between the field and the results; Escape returns to the field.
  document.addEventListener('keydown', (event) => {
    const links = [...list.querySelectorAll('a')];
    const at = links.indexOf(document.activeElement);
    if (event.key === 'ArrowDown' && (document.activeElement === input || at >= 0) && links.length) {
      event.preventDefault();
      links[Math.min(at + 1, links.length - 1)].focus();
    } else if (event.key === 'ArrowUp' && at >= 0) {
      event.preventDefault();
      (at === 0 ? input : links[at - 1]).focus();
    } else if (event.key === 'Escape' && at >= 0) {
      input.focus();
    }
  });
}
