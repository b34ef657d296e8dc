/**
 * Plans and their features: the one place that says what each plan allows.
 * Features and limits of a channel follow its owner's plan (spec rule 8).
 * @module
 */

/** What a plan allows. */
export interface PlanFeatures {
  /** Human name for listings. */
  readonly label: string;
  /** May keys of this account call the publishing API at all. */
  readonly apiPublishing: boolean;
  /** May articles be scheduled for later publication. */
  readonly scheduling: boolean;
  /** How many channels the account may own; over it, its channels become read-only. */
  readonly channelLimit: number;
}

/** The plans, keyed by their permanent id. */
export const PLANS = Object.freeze({
  reader: Object.freeze({ label: 'Reader (no API publishing)', apiPublishing: false, scheduling: false, channelLimit: 0 }),
  free: Object.freeze({ label: 'Free', apiPublishing: true, scheduling: false, channelLimit: 3 }),
  pro: Object.freeze({ label: 'Pro', apiPublishing: true, scheduling: true, channelLimit: 50 }),
} satisfies Record<string, PlanFeatures>);

/** A plan id. */
export type PlanId = keyof typeof PLANS;

/** Plan ids, for validation and help texts. */
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

/** True when `value` names a plan. */
export function isPlanId(value: string): value is PlanId {
  return Object.hasOwn(PLANS, value);
}

/** The features of a plan. */
export function planFeatures(plan: PlanId): PlanFeatures {
  return PLANS[plan];
}
