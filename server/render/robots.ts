/**
 * robots.txt: every client may read everything public (the spec: all kinds
 * of client receive the same published content), the site's Content Signals
 * (contentsignals.org) state what the content may be used for, and the
 * sitemap is advertised.
 * @module
 */
import type { SiteInfo } from '../read-model/view-models.ts';

/**
 * Renders robots.txt. The `Content-Signal` line sits in the `User-agent: *`
 * group, as contentsignals.org specifies, and is left out when the site sets
 * no signal. Line breaks in the configured value are folded to spaces so a
 * setting cannot add robots rules of its own.
 */
export function renderRobots(site: SiteInfo): string {
  const signal = site.contentSignal.replace(/[\r\n]+/g, ' ').trim();
  const lines = [
    '# Content Signals (https://contentsignals.org/): search = building a search index and linking to results;',
    '# ai-input = using content as input to AI answers; ai-train = training or fine-tuning AI models.',
    '# Public access grants no reuse or training rights beyond these signals and the terms of service.',
    'User-agent: *',
    ...(signal ? [`Content-Signal: ${signal}`] : []),
    'Allow: /',
    '',
    `Sitemap: ${site.baseUrl}/sitemap.xml`,
    '',
  ];
  return lines.join('\n');
}
