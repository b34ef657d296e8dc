/**
 * Constants of the wire format shared by every JSON the service writes: the
 * static documents, the read API's variants and both APIs' error bodies.
 * @module
 */

/** Value of `schema_version` in every JSON payload (both APIs' "Versioning"). */
export const SCHEMA_VERSION = '1.0';
