/** Row type of the `bucket_objects` table (see `bucket-object.repository.ts`). @module */

/** One object in the deploy bucket, as uploaded. */
export interface BucketObjectTable {
  /** The output path (the object key without the configured prefix). */
  key: string;
  /** SHA-256 of the bytes uploaded (hex). */
  hash: string;
  size: number;
  /** The output file's mtime when it was uploaded: an unchanged size and mtime skip reading it again. */
  mtime_ms: number;
  content_type: string;
  cache_control: string;
  uploaded_at: string;
}
