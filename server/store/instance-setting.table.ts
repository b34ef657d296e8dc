/** Row type of `instance_settings` (see `instance-setting.repository.ts`). @module */

/** Row type of `instance_settings`. */
export interface InstanceSettingTable {
  key: string;
  value: string;
}
