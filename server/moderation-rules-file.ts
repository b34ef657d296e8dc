/**
 * Loads the moderation rules file (`PRESSROOM_MODERATION_FILE`), validated
 * with the policy's schema. Without a file the default rules apply.
 * @module
 */
import fs from 'node:fs';
import { DEFAULT_MODERATION_RULES, moderationRulesSchema, type ModerationRules } from './domain/moderation/moderation-policy.ts';
import { describeError } from './describe-error.ts';
import { InternalError } from './internal-error.ts';

/**
 * Reads and validates the rules.
 * @throws Error naming the file and every invalid field.
 */
export function loadModerationRules(file: string | null): ModerationRules {
  if (file === null) return DEFAULT_MODERATION_RULES;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InternalError('CONFIG_FILE_INVALID', `Cannot read the moderation rules file ${file}: ${describeError(error)}. Fix the file or unset PRESSROOM_MODERATION_FILE.`, { cause: error });
  }
  const parsed = moderationRulesSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new InternalError('CONFIG_FILE_INVALID', `The moderation rules file ${file} is invalid: ${problems}. See docs/moderation.example.json.`);
  }
  return Object.freeze(parsed.data);
}
