import { describe, expect, it } from 'vitest';
import { PressroomError } from '../errors.ts';
import { ALT_REQUIRED_MESSAGE, readUploadInput, type UploadedFile, type UploadInput } from './upload-input.ts';

const file: UploadedFile = { size: 3, bytes: async () => new Uint8Array([1, 2, 3]) };
const input = (fields: Record<string, string[]>, files: Record<string, UploadedFile[]> = { image: [file] }): UploadInput => ({ fields, files });

function fieldErrors(run: () => unknown): Record<string, string> {
  try {
    run();
  } catch (error) {
    expect(PressroomError.is(error) && error.code).toBe('VALIDATION_FAILED');
    return (error as PressroomError).details!.fields as Record<string, string>;
  }
  throw new Error('expected a validation error');
}

describe('readUploadInput', () => {
  it('applies the defaults: article image, centre focus, watermark auto, no alt', () => {
    const { fields, image } = readUploadInput(input({}));
    expect(fields).toEqual({ purpose: 'article', position_x: 50, position_y: 50, watermark: 'auto', alt: '' });
    expect(image).toBe(file);
  });

  it('reads every field, treating empty ones as omitted', () => {
    const { fields } = readUploadInput(
      input({ purpose: ['channel_avatar'], position_x: ['0'], position_y: ['100.0'], watermark: [''], alt: ['  A  cat '], page_slug: [''] }),
    );
    expect(fields).toEqual({ purpose: 'channel_avatar', position_x: 0, position_y: 100, watermark: 'auto', alt: 'A cat' });
  });

  it.each([['-1'], ['100.5'], ['abc'], ['1e2'], ['50%']])('names position_x when it is %s', (value) => {
    const errors = fieldErrors(() => readUploadInput(input({ position_x: [value] })));
    expect(Object.keys(errors)).toEqual(['position_x']);
    expect(errors.position_x).toMatch(/from 0 to 100/);
  });

  it('requires the image as a file, once, and nothing else as a file', () => {
    expect(fieldErrors(() => readUploadInput(input({}, {})))).toEqual({ image: expect.stringMatching(/^Required/) });
    expect(fieldErrors(() => readUploadInput(input({ image: ['text'] }, {})))).toEqual({ image: expect.stringMatching(/file part/) });
    expect(Object.keys(fieldErrors(() => readUploadInput(input({}, { image: [file, file] }))))).toEqual(['image']);
    expect(Object.keys(fieldErrors(() => readUploadInput(input({}, { image: [file], other: [file] }))))).toEqual(['other']);
  });

  it('refuses unknown, repeated and invalid fields, all at once', () => {
    const errors = fieldErrors(() =>
      readUploadInput(input({ caption: ['x'], alt: ['a', 'b'], purpose: ['banner'], watermark: ['maybe'], page_slug: ['Not A Slug'], position_y: ['101'] })),
    );
    expect(Object.keys(errors).sort()).toEqual(['alt', 'caption', 'page_slug', 'position_y', 'purpose', 'watermark']);
  });

  it('refuses a blank alt of an article image when the caller requires alt text (the dashboard), with the other problems', () => {
    expect(fieldErrors(() => readUploadInput(input({ alt: ['   '] }), { altRequired: true }))).toEqual({ alt: ALT_REQUIRED_MESSAGE });
    expect(fieldErrors(() => readUploadInput(input({ position_y: ['200'] }), { altRequired: true }))).toEqual({ position_y: expect.any(String), alt: ALT_REQUIRED_MESSAGE });
    expect(readUploadInput(input({ alt: ['A cat'] }), { altRequired: true }).fields.alt).toBe('A cat');
    // Avatars and covers have no alt of their own; the publishing API keeps alt optional.
    expect(readUploadInput(input({ purpose: ['channel_cover'] }), { altRequired: true }).fields.alt).toBe('');
    expect(readUploadInput(input({})).fields.alt).toBe('');
  });
});
