/**
 * What the static output shows of each translation (`built_translations`):
 * the content hash of the published revision its files were built from,
 * recorded by the builder after every file of that build is in place (its
 * lists and feeds too). The publishing API reports a translation
 * `published` only once its row is here, and keeps reporting it public
 * while the row stays, so what it says is what readers get (issue 13, read
 * your writes; docs/LIFECYCLE.md).
 *
 * Unlike `build_owners` this is data the API reads, so a migration makes it.
 * An existing database is seeded from the store's published translations:
 * the output built before this version already showed them. The next full
 * build rewrites the table from what it built.
 * @module
 */
import { sql, type Kysely } from 'kysely';

/** Creates and seeds `built_translations`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE built_translations (
      article_id INTEGER NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
      language TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      PRIMARY KEY (article_id, language)
    ) WITHOUT ROWID`.execute(db);
  await sql`
    INSERT INTO built_translations (article_id, language, content_hash)
    SELECT t.article_id, t.language, r.content_hash
    FROM article_translations t JOIN revisions r ON r.id = t.published_revision_id
    WHERE t.status = 'published' AND EXISTS (SELECT 1 FROM output_files)`.execute(db);
}

/** Drops `built_translations`. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS built_translations`.execute(db);
}
