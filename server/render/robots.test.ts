import { describe, expect, it } from 'vitest';
import { SITE } from '../../test/support/view-models.ts';
import { renderRobots } from './robots.ts';

describe('renderRobots', () => {
  it('allows everything, states the content signal in the * group and names the sitemap', () => {
    const text = renderRobots(SITE);
    const lines = text.split('\n').filter((l) => !l.startsWith('#'));
    expect(lines).toEqual([
      'User-agent: *',
      'Content-Signal: search=yes, ai-input=yes, ai-train=no',
      'Allow: /',
      '',
      'Sitemap: https://news.example/sitemap.xml',
      '',
    ]);
    expect(text).toBe(renderRobots(SITE));
  });

  it('leaves the signal out when none is set and cannot be given extra rules', () => {
    expect(renderRobots({ ...SITE, contentSignal: '' })).not.toContain('Content-Signal');
    const text = renderRobots({ ...SITE, contentSignal: 'search=yes\nDisallow: /' });
    expect(text).toContain('Content-Signal: search=yes Disallow: /\n');
    expect(text.split('\n').filter((l) => l.startsWith('Disallow'))).toEqual([]);
  });
});
