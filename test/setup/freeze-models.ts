/**
 * Every test process freezes the read models it is handed
 * (`server/read-model/identity-memo.ts`): a write to a built model would
 * break the identity rule the builder's memos rest on, and frozen, it throws.
 */
import { freezeModels } from '../../server/read-model/identity-memo.ts';

freezeModels(true);
