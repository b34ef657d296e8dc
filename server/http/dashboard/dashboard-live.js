// The article screen's live states: on an article screen whose states are still changing, it listens to the
// server's event stream and writes each new state into its cell, saying what changed in a live region.
// Text only (textContent), so nothing the server sends is ever markup.
const table = document.querySelector('[data-live]');
const say = document.getElementById('live-status');
if (table && say && 'EventSource' in window) {
  const source = new EventSource(table.getAttribute('data-live'));
  const put = (name, value, changes, label) => {
    const cell = document.querySelector(`[data-cell="${name}"]`);
    if (cell && cell.textContent !== value) {
      cell.textContent = value;
      changes.push(`${label}: ${value}`);
    }
  };
  source.addEventListener('state', (event) => {
    const state = JSON.parse(event.data);
    const changes = [];
    put('article-status', state.status, changes, 'article');
    put('article-moderation', state.moderation, changes, 'article moderation');
    for (const t of state.translations) {
      put(`status-${t.language}`, t.status, changes, t.language);
      put(`moderation-${t.language}`, t.moderation, changes, `${t.language} moderation`);
      put(`revision-${t.language}`, t.revision, changes, `${t.language} revision`);
    }
    if (changes.length > 0) say.textContent = `Now ${changes.join('; ')}.`;
  });
  source.addEventListener('final', () => {
    source.close();
    say.textContent = `${say.textContent} Every state is final.`.trim();
  });
}
