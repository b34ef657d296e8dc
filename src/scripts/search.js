// Starts the Pagefind search box (docs/SEARCH.md). A file of its own, not an
// inline script, so the pages' Content-Security-Policy needs no
// 'unsafe-inline' (docs/HOSTING.md, "Security headers").
(function () {
  var el = document.getElementById('search');
  if (!el || !window.PagefindUI || !window.fetch) return;
  var folder = el.getAttribute('data-bundles');
  var site = el.getAttribute('data-site');
  var lang = document.documentElement.lang;
  var rest = location.pathname.indexOf(site) === 0 ? location.pathname.slice(site.length) : '';
  var channel = rest.split('/')[0];
  fetch(folder + 'shards.json')
    .then(function (r) { return r.ok ? r.json() : []; })
    .then(function (shards) {
      if (!shards.length) return;
      // The homepage searches every shard; other pages the shards of their language, their channel's first.
      var sameLang = shards.filter(function (s) { return s.language === lang; });
      var pool = channel === '' || sameLang.length === 0 ? shards : sameLang;
      var own = pool.filter(function (s) { return s.channel === channel && s.language === lang; })[0] || pool.filter(function (s) { return s.language === lang; })[0] || pool[0];
      labelWhenRendered(el);
      new PagefindUI({
        element: '#search',
        showSubResults: true,
        showImages: false,
        bundlePath: folder + own.bundlePath,
        mergeIndex: pool.filter(function (s) { return s !== own; }).map(function (s) { return { bundlePath: folder + s.bundlePath, language: s.language }; }),
      });
    })
    .catch(function () {});

  // Pagefind UI labels its input with `title` only, which screen readers do not all announce as a label (axe
  // `label-title-only`): give it the search region's own label.
  function labelWhenRendered(box) {
    var label = box.getAttribute('aria-label');
    function apply() {
      var input = box.querySelector('input');
      if (!input) return false;
      input.setAttribute('aria-label', label);
      return true;
    }
    var observer = new MutationObserver(function () {
      if (apply()) observer.disconnect();
    });
    observer.observe(box, { childList: true, subtree: true });
  }
})();
