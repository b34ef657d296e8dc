import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from './validation.ts';

describe('parseInput', () => {
  it.each([
    ['top level', '{"title":"x","__proto__":{"admin":true}}', '__proto__'],
    ['nested', '{"title":"x","author":{"name":"a","__proto__":1}}', 'author.__proto__'],
    ['constructor', '{"title":"x","constructor":{"prototype":{}}}', 'constructor'],
  ])('names a %s __proto__-like key as an unknown field', (_name, json, field) => {
    const schema = z.object({ title: z.string(), author: z.object({ name: z.string() }).strict().optional() }).strict();
    let error: any;
    try {
      parseInput(schema, JSON.parse(json));
    } catch (caught) {
      error = caught;
    }
    expect(error?.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.details.fields)).toEqual([field]);
    expect(JSON.parse(JSON.stringify(error.details)).fields[field]).toMatch(/^Unknown field/);
    expect(error.message).toContain(field);
    expect(({} as any).admin).toBeUndefined();
  });
});
